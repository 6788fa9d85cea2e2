"""Usage lines of the action commands (shown when the arguments are missing)."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _


def attack_usage() -> str:
    return _(
        "<code>/attack [кто] &lt;цель&gt; [драка|стрельба|метание] [урон] …</code>, e.g.\n"
        "<code>/attack Ичиго Гриммджо сил+к6 безрассудная</code>\n"
        "<code>/attack Рукия Пустой 2 стрельба 2d6 бп 2 средняя укрытие лёгкое темнота -1</code>"
    )


def check_usage() -> str:
    return _(
        "<code>/check [кто] &lt;навык или атрибут&gt; [цн 6] [+1] [свободно]</code>, e.g. "
        "<code>/check Ичиго внимание -2</code>"
    )


def support_usage() -> str:
    return _(
        "<code>/support [кто] &lt;союзник&gt; &lt;навык&gt; [для &lt;навык&gt;]</code>, "
        "e.g. <code>/support Орихиме Ичиго лечение для драка</code>"
    )


def test_usage() -> str:
    return _(
        "<code>/test [кто] &lt;цель&gt; &lt;навык&gt; [отвлечь|уязвим]</code>, e.g. "
        "<code>/test Рукия Гриммджо провокация уязвим</code>"
    )
