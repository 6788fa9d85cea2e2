"""Usage lines of the damage, state and benny commands."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _


def hit_usage() -> str:
    return _(
        "<code>/hit &lt;цель&gt; &lt;урон или кубики&gt; [бп N]</code>, e.g. "
        "<code>/hit Ичиго 12</code> or <code>/hit Пустой 3 2d6+2 бп 2</code>"
    )


def benny_usage() -> str:
    return _(
        "<code>/benny &lt;кто&gt; [N]</code> — the GM gives bennies, e.g. "
        "<code>/benny Рукия 2</code>"
    )


def cond_usage() -> str:
    return _(
        "<code>/cond &lt;кто&gt; &lt;состояние&gt; [до конца хода]</code>; "
        "<code>/cond Ичиго -отвлечён</code> removes it. States: шок, оглушён, отвлечён, "
        "уязвим, опутан, связан, лежит"
    )


def fatigue_usage() -> str:
    return _("<code>/fatigue &lt;кто&gt; +1</code> or <code>-1</code>")


def status_usage() -> str:
    return _(
        "<code>/status &lt;кто&gt; раны 2 шок 0 усталость 1</code> — the GM corrects the state"
    )
