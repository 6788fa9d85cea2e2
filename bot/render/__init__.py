"""All user-facing text of the bot: gettext messages (msgids in English, Russian is the
default locale), HTML with every user string quoted. Nothing here sends anything."""
