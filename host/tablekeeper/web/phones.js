// The phones' pages (the table page and a seat page): one socket to the station, which pushes the
// page view whenever the displays change; presses and console lines go back numbered, are kept until
// the station acknowledges them, and are sent again after a reconnect (the station takes each once).
"use strict";

const K = new URLSearchParams(location.search).get("k") || "";
const PAGE = document.body.dataset.page;
const SEAT = PAGE === "seat" ? Number(location.pathname.split("/")[2]) : null;
const STORE_KEY = `tablekeeper:${location.pathname}`;
const $ = (id) => document.getElementById(id);

const saved = JSON.parse(sessionStorage.getItem(STORE_KEY) || "null") || {};
const state = {
  client: saved.client || randomName(),
  seq: saved.seq || 0,
  outbox: saved.outbox || [],  // sent, not acknowledged yet
  socket: null,
  greeted: false,
  holdS: 0.6,
  retryMs: 250,
  retryTimer: 0,
  ref: 0,
  view: null,
  sentLines: {},  // seq -> the console line, to say what became of it
  saidTimer: 0,
};

function randomName() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function keep() {
  sessionStorage.setItem(STORE_KEY, JSON.stringify({client: state.client, seq: state.seq, outbox: state.outbox}));
  document.body.dataset.pending = String(state.outbox.length);
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// --- the socket --------------------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/live?k=${encodeURIComponent(K)}`);
  state.socket = socket;
  state.greeted = false;
  socket.onopen = () => {
    socket.send(JSON.stringify({t: "hello", client: state.client}));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (state.socket !== socket) return;
    state.socket = null;
    state.greeted = false;
    showLink(false);
    state.retryTimer = setTimeout(connect, state.retryMs);
    state.retryMs = Math.min(4000, state.retryMs * 2);
  };
}

// The phone says its network is back (out of a lift, back in the hall's wifi): reconnect now rather
// than at the end of a backoff of up to 4 s, so what waits in the outbox goes at once.
window.addEventListener("online", () => {
  if (state.socket) return;
  clearTimeout(state.retryTimer);
  connect();
});

function receive(message) {
  if (message.t === "hello") {
    state.greeted = true;
    state.retryMs = 250;
    state.holdS = message.hold_s || state.holdS;
    showLink(true);
    for (const waiting of state.outbox) state.socket.send(JSON.stringify(waiting));  // again: taken once
  } else if (message.t === "ack") {
    acknowledged(message);
  } else if (message.t === "view") {
    state.view = message.view;
    render(message.view);
    document.body.dataset.version = String(message.v);
  } else if (message.t === "completions") {
    if (message.ref === state.ref) showChoices(message.choices);
  } else if (message.t === "error") {
    say(`the station could not read that: ${message.detail}`, "refused");
  }
}

function send(message) {
  state.seq += 1;
  const numbered = Object.assign({seq: state.seq}, message);
  state.outbox.push(numbered);
  keep();
  if (state.socket && state.greeted) state.socket.send(JSON.stringify(numbered));
  return state.seq;
}

function acknowledged(message) {
  state.outbox = state.outbox.filter((m) => m.seq !== message.seq);
  keep();
  const line = state.sentLines[message.seq];
  delete state.sentLines[message.seq];
  if (message.refused) say(line ? `${line}: ${message.refused}` : message.refused, "refused");
  else say(line ? `${line}: done` : "", "done");  // a press taken: an older refusal is not left standing
}

function showLink(up) {
  const link = $("link");
  link.textContent = up ? "connected" : "reconnecting...";
  link.className = up ? "link up" : "link down";
}

const SAID_S = 8;  // a refusal stays this long (the displays' notices last about as long)

function say(text, outcome) {
  const said = $("said");
  if (!said) return;
  said.textContent = text;
  said.dataset.outcome = outcome;
  clearTimeout(state.saidTimer);
  if (outcome === "refused") {
    state.saidTimer = setTimeout(() => { if (said.textContent === text) said.textContent = ""; }, SAID_S * 1000);
  }
}

function press(role, gesture) {
  send({t: "press", role, g: gesture || "press"});
}

function typeLine(text) {
  const seq = send({t: "line", text});
  state.sentLines[seq] = text;
}

// A button on the page pressed as the panel's: down sends PRESS, held past the hold time HOLD, up RELEASE.
function pressable(button, role) {
  let timer = null;
  let down = false;
  const release = () => {
    if (!down) return;
    down = false;
    clearTimeout(timer);
    press(role(), "release");
  };
  button.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    if (down) return;
    down = true;
    press(role(), "press");
    timer = setTimeout(() => { if (down) press(role(), "hold"); }, state.holdS * 1000);
  });
  button.addEventListener("pointerup", release);
  button.addEventListener("pointercancel", release);
  button.addEventListener("pointerleave", release);
  button.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); press(role(), "press"); press(role(), "release"); }
  });
}

// --- drawing the view --------------------------------------------------------------------------
function displayBox(display) {
  const box = el("article", {class: `display${display.covered ? " covered" : ""}`, "data-role": display.role});
  box.append(el("h3", {class: "title"}, display.title));
  if (display.big) box.append(el("div", {class: "big"}, display.big));
  const lines = el("ul", {class: "lines"});
  for (const line of display.lines) {
    lines.append(el("li", {class: `${line.emphasis}${line.marked ? " marked" : ""}`}, line.text));
  }
  box.append(lines);
  if (display.banner) {
    box.append(el("p", {class: `banner ${display.banner_kind || "cover"}`}, display.banner));
  }
  if (display.join_pin) {
    box.append(el("p", {class: "join"}, `Phones join here: scan the code on the track display, or type PIN ${display.join_pin}`));
  }
  return box;
}

function drawDisplays(view, roles) {
  const shown = view.displays.filter((d) => roles.includes(d.role));
  $("displays").replaceChildren(...shown.map(displayBox));
}

function render(view) {
  $("game").textContent = view.game;
  if (PAGE === "table") renderTable(view);
  else renderSeat(view);
}

function renderTable(view) {
  drawDisplays(view, ["track", "tokens"]);
  const question = view.question;
  $("question").hidden = !question;
  if (question) {
    $("question-text").textContent = question.seat ? `Seat ${question.seat}: ${question.text}` : question.text;
    $("answers").replaceChildren(...question.answers.map((answer, index) => {
      const button = el("button", {type: "button", class: `answer${index === question.pointed ? " pointed" : ""}`,
                                   "data-answer": String(index + 1)}, `${index + 1}. ${answer}`);
      button.addEventListener("click", () => typeLine(`choose ${index + 1}`));
      return button;
    }));
  }
  $("undo-what").textContent = view.undo ? `Undo takes back: ${view.undo}` : "Nothing to undo.";
  $("undo").disabled = !view.undo;
  $("log").replaceChildren(...view.log.map((line) => el("li", {}, line)));
  const codes = $("seat-codes");
  if (codes.childElementCount !== view.seats + 1) {
    const table = el("figure", {class: "code"}, el("img", {src: `/qr/table.svg?k=${encodeURIComponent(K)}`, alt: "the table page's code"}),
                     el("figcaption", {}, el("a", {href: `/?k=${encodeURIComponent(K)}`}, "Table page")));
    const seats = [];
    for (let seat = 1; seat <= view.seats; seat += 1) {
      seats.push(el("figure", {class: "code", "data-seat": String(seat)},
                    el("img", {src: `/qr/seat${seat}.svg?k=${encodeURIComponent(K)}`, alt: `seat ${seat}'s code`}),
                    el("figcaption", {}, el("a", {href: `/seat/${seat}?k=${encodeURIComponent(K)}`}, `Seat ${seat}`))));
    }
    codes.replaceChildren(table, ...seats);
  }
}

const LED_WORDS = {steady: "your turn", blinking: "you still owe a move", off: ""};

function renderSeat(view) {
  $("seat-name").textContent = `Seat ${SEAT}`;
  document.title = `Tablekeeper: seat ${SEAT}`;
  drawDisplays(view, [`seat${SEAT}`]);
  const seat = view.seat_views.find((s) => s.seat === SEAT);
  if (!seat) return;
  const led = $("led");
  led.className = `led ${seat.light}`;
  led.setAttribute("aria-label", `seat light ${seat.light}`);
  $("led-words").textContent = seat.empty ? "nobody plays this seat" : LED_WORDS[seat.light];
  $("a-does").textContent = seat.a || "does nothing now";
  $("b-does").textContent = seat.b || "does nothing now";
  $("counter-state").textContent = seat.counter_missing ? "The counter for this seat is missing." : "";
  $("counters").replaceChildren(...seat.counters.map((counter) => {
    const minus = el("button", {type: "button", class: "step", "data-track": counter.track}, "-");
    const plus = el("button", {type: "button", class: "step", "data-track": counter.track}, "+");
    minus.addEventListener("click", () => typeLine(`add ${counter.track} -1`));
    plus.addEventListener("click", () => typeLine(`add ${counter.track} +1`));
    return el("li", {"data-track": counter.track}, el("span", {class: "name"}, counter.name), minus,
              el("span", {class: "value"}, counter.value === null ? "-" : String(counter.value)), plus);
  }));
}

// --- the console -------------------------------------------------------------------------------
let asking = null;

function askChoices() {
  clearTimeout(asking);
  asking = setTimeout(() => {
    const text = $("line").value;
    state.ref += 1;
    if (state.socket && state.greeted) state.socket.send(JSON.stringify({t: "complete", ref: state.ref, text}));
  }, 120);
}

function showChoices(choices) {
  $("hint").textContent = choices.length ? choices[0].hint : "";
  $("choices").replaceChildren(...choices.map((choice) => {
    const button = el("button", {type: "button", class: "choice"}, choice.word);
    button.addEventListener("click", () => take(choice.line));
    return el("li", {}, button);
  }));
  state.choices = choices;
}

function take(line) {
  const input = $("line");
  input.value = line;
  input.focus();
  askChoices();
}

function setUpTable() {
  pressable($("next"), () => "next");
  pressable($("undo"), () => "back");
  const input = $("line");
  input.addEventListener("input", () => { showChoices([]); askChoices(); });
  input.addEventListener("focus", askChoices);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Tab" && state.choices && state.choices.length) {
      event.preventDefault();
      take(state.choices[0].line);
    }
  });
  $("console").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    typeLine(text);
    say(`${text}: sent`, "sent");
    input.value = "";
    showChoices([]);
  });
}

function setUpSeat() {
  pressable($("button-a"), () => `seat${SEAT}.a`);
  pressable($("button-b"), () => `seat${SEAT}.b`);
}

if (PAGE === "table") setUpTable();
else if (PAGE === "seat") setUpSeat();
keep();
connect();
