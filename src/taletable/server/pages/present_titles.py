"""What each action's log entry says was done, as a verb phrase after the seat's name ("Mara
rolled a check"): every registered action has one (``tests/server/test_entry_sentences.py``
walks them), so no entry shows an action's dotted name.
"""

from __future__ import annotations

__all__ = ["READ_OUTCOME", "TITLES", "title_of"]

#: What was done, by action (the seat's name comes before it).
TITLES = {
    # rolls
    "roll": "rolled",
    "cogent.check": "rolled a check",
    "cogent.conflict": "rolled a conflict",
    "cogent.destiny-after": "spent destiny after a roll",
    "cogent.assist": "rolled an assist",
    "cogent.collaborate": "rolled a collaboration",
    "cogent.destiny-roll": "rolled a destiny roll",
    "cogent.cast": "cast a spell",
    "cogent.summon": "summoned a creature",
    "boons.check": "rolled a boons check",
    "boons.contest": "rolled a boons contest",
    "boons.group": "rolled in a group challenge",
    "boons.scatter": "rolled where a miss scatters",
    "boons.twist": "rolled a twist of fate",
    "labcats.roll": "rolled a labcats pool",
    "labcats.trouble": "changed the Trouble Pool",
    # the narrator's tables and tools
    "table.roll": "rolled on a random table",
    "cogent.weather": "rolled the weather",
    "cogent.encounter": "rolled an encounter",
    "cogent.npc.bestiary": "looked up the bestiary",
    "cogent.npc.new": "made a new NPC",
    "log.strike": "struck an entry",
    # characters
    "cogent.buy": "bought with commerce points",
    "cogent.character.advance": "advanced a character",
    "cogent.character.commerce": "awarded commerce points",
    "cogent.character.destiny": "awarded destiny points",
    "cogent.character.quirk": "applied a quirk of wealth",
    "cogent.character.raise": "raised a character",
    "cogent.character.treat": "treated an injury",
    "cogent.character.rest": "rested a character",
    "cogent.character.new": "made a new character",
    "cogent.character.new.disabling": "chose a disabling characteristic",
    "cogent.character.new.quirk": "chose a quirk of wealth",
    # a fight
    "cogent.combat.start": "started a fight",
    "cogent.combat.declare": "declared in the fight",
    "cogent.combat.resolve": "rolled the fight's round",
    "cogent.combat.choose": "chose a victory's outcome",
    "cogent.combat.condition": "set a condition in the fight",
    "cogent.combat.destiny": "spent destiny in the fight",
    "cogent.combat.take-back": "took back the fight's last step",
    "cogent.combat.end": "ended the fight",
    "cogent.combat.chase": "ran a chase",
    # reads (a live table logs none; an older log may hold some)
    "cogent.combat.status": "looked at where the fight stands",
    "cogent.combat.replay": "replayed the fight",
    "cogent.npc.show": "looked at an NPC's statblock",
    "cogent.character.pools": "looked at a character's pools",
    "cogent.character.validate": "checked a sheet against the rules",
    "cogent.character.new.step": "checked a step of a new character",
    "cogent.character.new.commerce": "worked out a new character's commerce",
    "cogent.character.new.starting-destiny": "worked out a new character's starting destiny",
    "cogent.challenge-levels": "looked up the challenge levels",
    "cogent.powerless": "looked up a check without the skill",
    "cheatsheet.cogent": "looked up the odds cheatsheet",
    "boons.difficulty": "looked up the boons difficulties",
    "labcats.build": "planned a labcats pool",
    "table.list": "listed the random tables",
    "table.odds": "asked the odds of a random table",
    "odds.cogent": "asked the odds of a check",
    "odds.cogent.advise": "asked how to raise the odds of a check",
    "odds.cogent.assist": "asked the odds of an assist",
    "odds.cogent.collaborate": "asked the odds of a collaboration",
    "odds.cogent.conflict": "asked the odds of a conflict",
    "odds.cogent.duel": "asked the odds of a duel",
    "odds.cogent.fight": "asked the odds of a fight",
    "odds.boons": "asked the odds of a boons check",
    "boons.track": "set a tracked value",
    "boons.circumstances-changed": "marked that the circumstances changed",
    "boons.bind-again": "marked that a freed situation binds again",
    "odds.labcats": "asked the odds of a labcats pool",
}

#: The outcome of a look-up, which rolls nothing and changes nothing.
READ_OUTCOME = "a look-up: nothing was rolled or changed"


def title_of(action: str) -> str:
    """What ``action`` did, in words ("took an action" for one this version does not know)."""
    return TITLES.get(action, "took an action this version does not know")
