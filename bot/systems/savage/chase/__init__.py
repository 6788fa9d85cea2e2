"""SWADE chases in a group chat: the chase row message and the GM's and players'
commands; the chase follows the fight's turns in the services (engine/services/follow.py),
and the chat tells what it did. The router is assembled in `router.py`."""
