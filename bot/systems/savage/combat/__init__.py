"""SWADE fights in a group chat: the initiative board and the GM's and players' commands.

Commands are Latin, their arguments Russian (docs/rules/chat.md). Handlers are thin:
read the words -> call the service -> render the events and refresh the board. The router
is assembled in `router.py` (the package itself imports nothing, so its modules can import
each other's and the chase's without a circle through this file).
"""
