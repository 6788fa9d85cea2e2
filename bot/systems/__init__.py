"""The rule systems in the chat: each system's adapter package (bot/systems/<code>/) and the
registry that the shared routers and texts read (bot/systems/registry.py); the installed
ones are listed in bot/systems/installed.py."""
