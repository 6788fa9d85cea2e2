"""What a pasted sheet may call a trait, an edge or a hindrance: the names of the Russian
SWADE editions and of the sheets players write, each mapped to the engine's code.

The engine's own tables (`traits.ATTRIBUTE_NAMES`, `traits.SKILL_NAMES`,
`character.EDGE_NAMES`) hold the seeds' spellings; this table adds the other names a sheet
meets. A name is compared lower-case, «ё» as «е», spaces single (`key`). `EXPORT_NAMES`
says which spelling a sheet is written back with: the one the chat uses (the chat says
«Быстрота», so does the sheet).
"""

from __future__ import annotations

# Attributes beyond the seeds' «Ловкость, Смекалка, Дух, Сила, Выносливость».
ATTRIBUTE_SYNONYMS: dict[str, str] = {
    "характер": "spirit",  # Russian Savage Worlds (SWD and SWADE editions): Spirit
    "воля": "spirit",  # common on home-made Russian sheets
    "дух": "spirit",  # the seeds
    "интеллект": "smarts",  # common on home-made Russian sheets
    "разум": "smarts",  # common on home-made Russian sheets
    "смекалка": "smarts",  # the seeds and the Russian editions
    "сноровка": "agility",  # an older Russian fan translation
    "ловкость": "agility",  # the seeds and the Russian editions
    "мощь": "strength",  # common on home-made Russian sheets
    "сила": "strength",  # the seeds and the Russian editions
    "выносливость": "vigor",  # the seeds and the Russian editions
    "телосложение": "vigor",  # common on home-made Russian sheets
    "живучесть": "vigor",  # common on home-made Russian sheets
}

# Skills beyond `traits.SKILL_NAMES`.
SKILL_SYNONYMS: dict[str, str] = {
    "бой": "fighting",  # short form on home-made sheets
    "рукопашный бой": "fighting",  # older Russian SWD sheets
    "ближний бой": "fighting",  # common on home-made Russian sheets
    "стрельба из лука": "shooting",  # older Russian SWD sheets
    "метание": "athletics",  # SWD «Throwing», folded into Athletics by SWADE
    "лазание": "athletics",  # SWD «Climbing», folded into Athletics by SWADE
    "плавание": "athletics",  # SWD «Swimming», folded into Athletics by SWADE
    "наблюдательность": "notice",  # older Russian SWD sheets
    "восприятие": "notice",  # common on home-made Russian sheets
    "внимательность": "notice",  # common on home-made Russian sheets
    "знания": "common_knowledge",  # short form of «Общие знания»
    "общие знания": "common_knowledge",  # Russian SWADE
    "эрудиция": "common_knowledge",  # common on home-made Russian sheets
    "скрытность": "stealth",  # Russian SWADE
    "маскировка": "stealth",  # common on home-made Russian sheets
    "убеждение": "persuasion",  # Russian SWADE
    "уговоры": "persuasion",  # common on home-made Russian sheets
    "запугивание": "intimidation",  # Russian SWADE
    "устрашение": "intimidation",  # common on home-made Russian sheets
    "провокация": "taunt",  # Russian SWADE
    "насмешка": "taunt",  # older Russian SWD sheets
    "медицина": "healing",  # common on home-made Russian sheets
    "лечение": "healing",  # Russian SWADE
    "выживание": "survival",  # Russian SWADE
    "следопыт": "survival",  # SWD «Tracking», folded into Survival by SWADE
    "магия": "spellcasting",  # Arcane Background (Magic) skill on home-made sheets
    "чародейство": "spellcasting",  # common on home-made Russian sheets
    "колдовство": "spellcasting",  # Russian SWADE
    "кидо": "spellcasting",  # the Bleach setting of the seeds (001)
    "фокусировка": "focus",  # Russian SWADE variants
    "сосредоточение": "focus",  # common on home-made Russian sheets
    "вера": "faith",  # Russian SWADE
    "вождение": "driving",  # Russian SWADE
    "пилотирование": "piloting",  # Russian SWADE
    "мореходство": "boating",  # Russian SWADE
    "управление лодкой": "boating",  # older Russian SWD sheets
    "верховая езда": "riding",  # Russian SWADE
    "езда верхом": "riding",  # common on home-made Russian sheets
    "воровство": "thievery",  # Russian SWADE
    "азарт": "gambling",  # Russian SWADE
    "азартные игры": "gambling",  # older Russian SWD sheets
    "исследование": "research",  # Russian SWADE
    "поиск": "research",  # SWD «Investigation», folded into Research by SWADE
    "ремонт": "repair",  # Russian SWADE
    "боевой дух": "battle",  # Russian SWADE
    "тактика": "battle",  # common on home-made Russian sheets
    "выступление": "performance",  # Russian SWADE
    "артистизм": "performance",  # common on home-made Russian sheets
}

# Skills of the Russian SWADE that no rule of the bot uses: kept under their own name (the
# chat shows it as written), without a warning.
KNOWN_SKILLS: frozenset[str] = frozenset(
    {
        "псионика",  # Russian SWADE (Psionics)
        "чудонаука",  # Russian SWADE (Weird Science)
        "наука",  # Russian SWADE (Science)
        "оккультизм",  # Russian SWADE (Occult)
        "электроника",  # Russian SWADE (Electronics)
        "хакерство",  # Russian SWADE (Hacking)
        "язык",  # Russian SWADE (Language)
        "академические знания",  # Russian SWADE (Academics)
        "знание улиц",  # SWD «Streetwise» on older Russian sheets
        "лидерство",  # common on home-made Russian sheets
    }
)

# Edges and hindrances the rules use, beyond `character.EDGE_NAMES`; nouns as the chat
# names them («Быстрота» for «Быстрый»).
EDGE_SYNONYMS: dict[str, str] = {
    "быстрота": "quick",  # the chat's name (the noun of «Быстрый»)
    "быстрый": "quick",  # Russian SWADE
    "быстрая": "quick",  # Russian SWADE, feminine
    "хладнокровие": "level_headed",  # Russian SWADE
    "хладнокровный": "level_headed",  # the adjective on home-made sheets
    "хладнокровная": "level_headed",  # the adjective on home-made sheets
    "улучшенное хладнокровие": "improved_level_headed",  # Russian SWADE
    "нерешительность": "hesitant",  # the chat's name (the noun of «Нерешительный»)
    "нерешительный": "hesitant",  # Russian SWADE
    "нерешительная": "hesitant",  # Russian SWADE, feminine
    "стойкость": "hardy",  # the noun of «Стойкий» (only in «Черты:», never a stat there)
    "стойкий": "hardy",  # Russian SWADE
    "стойкая": "hardy",  # Russian SWADE, feminine
    "железные нервы": "nerves_of_steel",  # older Russian SWD sheets
    "стальные нервы": "nerves_of_steel",  # Russian SWADE
    "улучшенные стальные нервы": "improved_nerves_of_steel",  # Russian SWADE
    "боевые рефлексы": "combat_reflexes",  # Russian SWADE
    "боевой рефлекс": "combat_reflexes",  # singular on home-made sheets
}

# Edges and hindrances a sheet often lists that change no rule the bot plays: kept as
# written, without a warning (the Russian SWADE names; «Изъяны» are hindrances).
KNOWN_FLAVOUR: frozenset[str] = frozenset(
    {
        # edges (Russian SWADE)
        "бесстрашие",
        "бесстрашный",
        "богач",
        "везение",
        "везунчик",
        "великое везение",
        "внимательный",
        "гений",
        "громила",
        "задира",
        "здоровяк",
        "ловкач",
        "лидер",
        "командир",
        "мастер клинка",
        "мастер боя",
        "меткий стрелок",
        "мистический дар",
        "обаяние",
        "харизма",
        "привлекательность",
        "привлекательный",
        "привлекательная",
        "сильная воля",
        "силач",
        "сообразительность",
        "спортсмен",
        "ярость",
        "берсерк",
        "уклонение",
        "блок",
        "улучшенный блок",
        "контратака",
        "первый удар",
        "сметающий удар",
        "мощный удар",
        "двуручный бой",
        "амбидекстр",
        "боевой опыт",
        "мастер на все руки",
        "целитель",
        "следопыт",
        "магия",
        "чудотворство",
        "псионика",
        "чудонаука",
        "сверхспособности",
        "новая сила",
        "запас сил",
        "улучшенный запас сил",
        "духовная сила",
        "банкай",  # the Bleach setting of the seeds (001)
        "шикай",  # the Bleach setting of the seeds (001)
        # hindrances (Russian SWADE)
        "верный",
        "верность",
        "высокомерный",
        "высокомерие",
        "жадный",
        "жадность",
        "заклятый враг",
        "злопамятный",
        "импульсивный",
        "кодекс чести",
        "любопытный",
        "любопытство",
        "мстительный",
        "неграмотный",
        "однорукий",
        "одноглазый",
        "осторожный",
        "осторожность",
        "плохое зрение",
        "пацифист",
        "самоуверенный",
        "самоуверенность",
        "слабое сердце",
        "тщеславный",
        "трусливый",
        "трусость",
        "упрямый",
        "упрямство",
        "уродливый",
        "фанатик",
        "хвастун",
        "честный",
        "что-то ищет",
        "жажда крови",
        "герой",
        "героизм",
        "хромой",
        "толстяк",
        "тучный",
        "маленький",
        "малыш",
        "медлительный",
        "молодой",
        "старый",
        "клаустрофобия",
        "фобия",
        "бедность",
        "бедный",
        "обет",
        "клятва",
        "разыскивается",
        "в розыске",
        "враг",
        "привычка",
        "дурная привычка",
        "безрассудный",
        "кровожадный",
        "глухой",
        "немой",
        "слепой",
        "туго соображает",
        "мягкосердечный",
        "ревнивый",
        "забывчивый",
        "болтун",
        "недотёпа",
        "неуклюжий",
        "невезучий",
        "невезение",
    }
)

# The spelling a sheet is written back with, by code: what the chat calls it.
EXPORT_NAMES: dict[str, str] = {
    "agility": "Ловкость",
    "smarts": "Смекалка",
    "spirit": "Дух",
    "strength": "Сила",
    "vigor": "Выносливость",
    "quick": "Быстрота",
    "hesitant": "Нерешительность",
    "level_headed": "Хладнокровие",
    "improved_level_headed": "Улучшенное хладнокровие",
    "hardy": "Стойкий",
    "nerves_of_steel": "Стальные нервы",
    "improved_nerves_of_steel": "Улучшенные стальные нервы",
    "combat_reflexes": "Боевые рефлексы",
    "common_knowledge": "Общие знания",
}


def key(name: str) -> str:
    """How a name is compared: lower case, «ё» as «е», single spaces."""
    return " ".join(name.strip().lower().replace("ё", "е").split())
