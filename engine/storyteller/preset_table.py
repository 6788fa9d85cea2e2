"""The seed's numbered actions as data (seed 002 «Физические действия», «Социальные
действия», «Интеллектуальные действия», «Автоматические действия»): each one's pools,
difficulty, kind and the sentence it reads. Looked up and read in presets.py.

A preset is data: ``pools`` lists the (attribute, ability) pairs the seed allows («Ловкость /
Сообразительность + Вождение» is two), the first one the default; ``difficulty`` is the
seed's, or 6 where the seed leaves it to the GM («Ведущий может установить сложность»).
"""

from __future__ import annotations

from dataclasses import dataclass

SIMPLE, OPPOSED, EXTENDED, AUTOMATIC = "simple", "opposed", "extended", "automatic"


@dataclass(frozen=True, slots=True)
class Preset:
    code: str
    names: tuple[str, ...]  # how a player calls it: /p прыжок
    pools: tuple[tuple[str, str | None], ...]  # (attribute, ability); ability None: alone
    difficulty: int
    kind: str = SIMPLE
    # an opposed action's other side: its pools ("willpower", None) for a Willpower roll
    against: tuple[tuple[str, str | None], ...] = ()
    against_difficulty: int = 6
    quote: str = ""


PRESETS: tuple[Preset, ...] = (
    # --- physical
    Preset(
        "climb",
        ("карабкаться", "лазание", "подъём"),
        (("dexterity", "athletics"),),
        6,
        EXTENDED,
        quote="ваш персонаж сможет преодолеть 3 метра за каждый успешный балл",
    ),
    Preset(
        "drive",
        ("вождение",),
        (("dexterity", "drive"), ("wits", "drive")),
        6,
        quote="Сложность броска на вождение увеличивается в более рискованных условиях.",
    ),
    Preset(
        "security",
        ("проникновение", "взлом замка"),
        (("dexterity", "security"), ("perception", "security")),
        7,
        quote="Сложность взлома может варьироваться от 5 до 9",
    ),
    Preset(
        "jump",
        ("прыжок", "прыжки"),
        (("strength", None),),
        3,
        quote="Выполняется бросок с сложностью 3.",
    ),
    Preset(
        "running_jump",
        ("прыжок с разбега",),
        (("strength", "athletics"),),
        3,
        quote="Сила + Атлетика для прыжков с разбега",
    ),
    Preset(
        "jump_estimate",
        ("оценить прыжок",),
        (("perception", "athletics"),),
        6,
        quote="бросок на Восприятие + Атлетика (сложность 6), чтобы определить, способен "
        "ли ваш персонаж преодолеть необходимую дистанцию",
    ),
    Preset(
        "jump_catch",
        ("зацепиться",),
        (("dexterity", "athletics"),),
        6,
        quote="бросок на Ловкость + Атлетика (сложность 6), чтобы попытаться зацепиться",
    ),
    Preset(
        "lift",
        ("поднять", "сломать"),
        (("willpower", None),),
        9,
        quote="требуется бросок на Силу воли (сложность 9). Каждый успешный балл временно "
        "увеличивает значение Силы на единицу",
    ),
    Preset(
        "pursuit",
        ("преследование", "погоня"),
        (("dexterity", "athletics"), ("dexterity", "drive")),
        6,
        EXTENDED,
        quote="Преследование обычно рассматривается как длительное действие",
    ),
    Preset(
        "shadow",
        ("слежка",),
        (("dexterity", "stealth"), ("dexterity", "drive")),
        6,
        OPPOSED,
        (("perception", "alertness"),),
        quote="Результаты сравниваются, и если равны, преследуемый не замечает наблюдателя.",
    ),
    Preset(
        "sneak",
        ("красться",),
        (("dexterity", "stealth"),),
        6,
        OPPOSED,
        (("perception", "alertness"),),
        quote="потенциальные наблюдатели бросают на Восприятие + Бдительность",
    ),
    Preset(
        "swim",
        ("плавание",),
        (("stamina", "athletics"),),
        6,
        quote="Ведущий может установить сложность в зависимости от условий",
    ),
    Preset(
        "throw",
        ("метание",),
        (("dexterity", "athletics"),),
        6,
        quote="( 6 или 7, учитывая расстояние и вес предмета)",
    ),
    Preset(
        "stand_up",
        ("встать",),
        (("dexterity", "athletics"),),
        4,
        quote="успех вставания определяется броском на Ловкость + Атлетика (сложность 4)",
    ),
    Preset(
        "start_car",
        ("завести машину",),
        (("wits", "drive"),),
        4,
        quote="бросок на Сообразительность + Вождение (сложность 4)",
    ),
    # --- social
    Preset(
        "drinking",
        ("умение пить", "выпивка"),
        (("charisma", "empathy"),),
        6,
        quote="бросьте на Обаяние + Эмпатию (сложность 6)",
    ),
    Preset(
        "credibility",
        ("правдоподобие", "обман"),
        (("manipulation", "subterfuge"),),
        7,
        OPPOSED,
        (("perception", "subterfuge"),),
        7,
        quote="Оба броска выполняются со сложностью 7, и побеждает тот, кто набрал больше "
        "успешных баллов.",
    ),
    Preset(
        "interrogation",
        ("допрос",),
        (("manipulation", "empathy"), ("manipulation", "intimidation")),
        6,
        OPPOSED,
        (("willpower", None),),
        quote="Если количество успешных баллов превышает Силу воли жертвы, она рассказывает "
        "все, что знает.",
    ),
    Preset(
        "intimidation",
        ("запугивание",),
        (("manipulation", "intimidation"), ("strength", "intimidation")),
        6,
        OPPOSED,
        (("willpower", None),),
        quote="Оппонент выполняет бросок на Силу воли. Сложность обоих бросков равна 6.",
    ),
    Preset(
        "speech",
        ("речь",),
        (("charisma", "leadership"),),
        6,
        quote="Бросок на Обаяние + Лидерство выполняется со сложностью 6.",
    ),
    Preset(
        "speech_prepared",
        ("подготовить речь",),
        (("intelligence", "expression"),),
        7,
        quote="Успешный балл из этого броска уменьшает сложность последующего броска на "
        "Обаяние + Лидерство на 1.",
    ),
    Preset(
        "performance",
        ("представление", "выступление"),
        (("charisma", "performance"),),
        7,
        quote="Один успешный балл означает, что ваше представление было приятным",
    ),
    # --- mental
    Preset(
        "hacking",
        ("хакерство", "взлом"),
        (("intelligence", "computer"), ("wits", "computer")),
        6,
        quote="Стандартная система имеет сложность 6",
    ),
    Preset(
        "investigation",
        ("расследование",),
        (("perception", "investigation"),),
        6,
        quote="Успешные баллы определяют количество обнаруженных улик.",
    ),
    Preset(
        "repair",
        ("ремонт",),
        # «Ремонт (Ловкость / Восприятие + Ремесло / Технология)»: either attribute with
        # either ability
        (
            ("dexterity", "crafts"),
            ("dexterity", "technology"),
            ("perception", "crafts"),
            ("perception", "technology"),
        ),
        6,
        quote="Обычно замена колеса имеет сложность 4, а капитальный ремонт двигателя - 9.",
    ),
    Preset(
        "research",
        ("исследование",),
        (("intelligence", "research"), ("intelligence", "occult"), ("intelligence", "science")),
        6,
        quote="Один успешный балл означает, что персонаж обнаружил основную информацию",
    ),
    Preset(
        "tracking",
        ("выслеживание", "следы"),
        (("perception", "survival"),),
        6,
        quote="Каждый успешный балл увеличивает сложность выслеживания на единицу.",
    ),
    Preset(
        "cover_tracks",
        ("замести следы",),
        (("wits", "survival"),),
        6,
        quote="Преследуемый может попытаться замаскировать свои следы путем броска на "
        "Сообразительность + Выживание.",
    ),
)
