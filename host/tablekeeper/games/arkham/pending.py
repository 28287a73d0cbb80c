"""Carrying on after a command or an answer: whatever work a question or a skill test interrupted
(an enemy's engagement, an attack's harm, hunters, attacks, a card's steps, a turn's Forced tests, the 1.4 draws), then
Objectives the station can see met, then the last investigator's turn."""

from __future__ import annotations

from tablekeeper.core.game import Txn
from tablekeeper.games.arkham import attacks, board, effects, mythos, scenario_cards, steps, threat
from tablekeeper.games.arkham.record import rec


def resume(txn: Txn) -> None:
    while txn.state.prompt is None and txn.state.over is None:
        before = len(txn.events)
        state = txn.state
        testing = rec(state).test is not None
        if rec(state).engage_later:
            board.engage_waiting(txn)
        elif rec(state).soak is not None:
            attacks.ask_split(txn)
        elif rec(state).hunters_moved is not None:
            board.move_hunters(txn)
        elif rec(state).aoo is not None:
            attacks.continue_provoked(txn)
        elif rec(state).attack_queue is not None:
            attacks.continue_enemy_phase(txn)
        elif rec(state).todo and not testing:
            steps.drain(txn)
        elif rec(state).turn_end is not None and not testing:
            threat.go_on(txn)
        elif rec(state).draws is not None and not testing:
            mythos.advance(txn)
        else:
            scenario_cards.check_objectives(txn)
            if len(txn.events) == before:
                if txn.state.step == "2.2" and not testing:
                    effects.last_turn_begins(txn)
                return
        if len(txn.events) == before:
            return
