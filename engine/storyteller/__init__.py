"""Storyteller rules (seed 002, World of Darkness family): d10 pools, characters and their
sheet, initiative, the attack flow, maneuvers and presets of the seed's numbered actions.
Pure: no I/O; randomness is a parameter (engine.dice.rng.Rng).

Importing the package registers its description tables (refusals, sheet warnings, events).
"""

from engine.storyteller import describe, errors, preset_rolls, sheet

__all__ = ["describe", "errors", "preset_rolls", "sheet"]
