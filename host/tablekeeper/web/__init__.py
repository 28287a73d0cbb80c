"""Pages served to browsers on the LAN: the fleet organiser's page now, the phones' table and seat pages next.

Starlette answers the requests and uvicorn serves them (HTTP/1.1 through h11, WebSockets through
``websockets``); ``guard`` and ``server`` hold what every page shares: who may ask (Host, Origin,
a password), how much they may send, how many may connect and how long they may idle.
"""
