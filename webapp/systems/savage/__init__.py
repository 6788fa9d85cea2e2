"""Savage Worlds in the Mini App: the initiative board, the chase row and the character
editor, over engine/services/savage."""
