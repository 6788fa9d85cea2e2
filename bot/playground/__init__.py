"""The playground (`python -m bot` without BOT_TOKEN): the real bot and Mini App behind a
Telegram-like page, with an in-memory Bot API.

world.py (users, chats, messages), markup.py (HTML as Telegram parses it), botapi.py (the
methods, with Telegram's rules), session.py (the aiogram session over them), play.py (the
page's actions as updates for the dispatcher), launch.py (the Mini App's signed launch),
web.py (the page, its API and live feed), demo.py (the systems' demo tables), start.py (start-up),
texts.py (its words), static/ (the page: plain HTML, CSS and JS)."""
