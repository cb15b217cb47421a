"""taletable.play: one function per thing a user does, the layer both shells stand on.

Each action takes a typed, validated request and a :class:`Table` (the rules, the rules tables
in force, a dice source and a store) and returns :class:`Played`: the engine's result record and
the events the action caused. The CLI and the live table only parse, call these, and render;
no rule is decided in a shell (DESIGN > Layers).

The names below are imported on first use, so ``import taletable.play`` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from taletable.play.boons import (
        BoonsCheckRequest,
        BoonsContestRequest,
        BoonsDifficultyRequest,
        BoonsGroupRequest,
        BoonsScatterRequest,
        BoonsTwistRequest,
        GroupMember,
        boons_check,
        boons_contest,
        boons_difficulty,
        boons_group,
        boons_scatter,
        boons_twist,
    )
    from taletable.play.boons_tracks import (
        AccumulateRequest,
        AccumulationOdds,
        AccumulationOddsRequest,
        TrackRequest,
        TrackSet,
        boons_accumulate,
        boons_track,
        odds_accumulate,
    )
    from taletable.play.character_creation import (
        CreatedCharacter,
        NewCharacterRequest,
        StepRequest,
        ValidateRequest,
        character_step,
        new_character,
        validate_character,
    )
    from taletable.play.characters import PoolsRequest, character_pools
    from taletable.play.chat import ChatRequest, ChatResult, say
    from taletable.play.cogent_checks import (
        AssistRequest,
        ChallengeLevelsRequest,
        CheckRequest,
        CollaborateRequest,
        ConflictRequest,
        DestinyRollRequest,
        PowerlessRequest,
        assist,
        challenge_levels,
        check,
        collaborate,
        conflict,
        destiny_roll,
        powerless,
    )
    from taletable.play.cogent_followups import DestinyAfterRequest, destiny_after
    from taletable.play.cogent_magic import CastRequest, SummonRequest, cast, summon
    from taletable.play.combat import (
        CombatChooseRequest,
        CombatDeclareRequest,
        CombatRequest,
        CombatResolveRequest,
        CombatStartRequest,
        combat_choose,
        combat_declare,
        combat_replay,
        combat_resolve,
        combat_start,
        combat_status,
    )
    from taletable.play.combat_chase import ChaseRequest, ChaseResult, ChaseSide, combat_chase
    from taletable.play.context import Table
    from taletable.play.dice_notation import RollRequest, roll
    from taletable.play.events import Event, Played
    from taletable.play.labcats import (
        LabcatsBuildRequest,
        LabcatsRollRequest,
        LabcatsTroubleRequest,
        TroubleResult,
        labcats_build,
        labcats_roll,
        labcats_trouble,
    )
    from taletable.play.narrator import (
        BestiaryEntry,
        BestiaryListing,
        BestiaryRequest,
        EncounterRequest,
        WeatherRequest,
        encounter,
        npc_bestiary,
        weather,
    )
    from taletable.play.npcs import (
        NpcNewRequest,
        NpcShowRequest,
        ShownStatblock,
        npc_new,
        npc_show,
        shown_statblock,
    )
    from taletable.play.odds_cogent import (
        AdviceOdds,
        AdviseRequest,
        AssistOdds,
        AssistOddsRequest,
        CheckOddsRequest,
        CheckOddsResult,
        CollaborateOddsRequest,
        CollaborationOdds,
        ConflictOddsRequest,
        odds_advise,
        odds_assist,
        odds_check,
        odds_collaborate,
        odds_conflict,
    )
    from taletable.play.odds_combat import (
        DuelRequest,
        DuelResult,
        FightRequest,
        odds_duel,
        odds_fight,
    )
    from taletable.play.odds_systems import (
        BoonsOdds,
        BoonsOddsRequest,
        Cheatsheet,
        CheatsheetRequest,
        LabcatsOddsRequest,
        odds_boons,
        odds_cheatsheet,
        odds_labcats,
    )
    from taletable.play.registry import ACTIONS, Action, all_actions, is_read, perform
    from taletable.play.requests import Request
    from taletable.play.tables import (
        EntryOdds,
        TableListing,
        TableListRequest,
        TableOdds,
        TableOddsRequest,
        TableRollRequest,
        TableRow,
        table_list,
        table_odds,
        table_roll,
        tables_in_force,
    )
    from taletable.play.undo import StrikeRequest, Struck, combat_take_back, strike

__all__ = [
    "ACTIONS", "AccumulateRequest", "AccumulationOdds", "AccumulationOddsRequest", "Action",
    "AdviceOdds", "AdviseRequest", "AssistOdds", "AssistOddsRequest", "AssistRequest",
    "BestiaryEntry", "BestiaryListing", "BestiaryRequest", "BoonsCheckRequest",
    "BoonsContestRequest", "BoonsDifficultyRequest", "BoonsGroupRequest", "BoonsOdds",
    "BoonsOddsRequest", "BoonsScatterRequest", "BoonsTwistRequest", "CastRequest",
    "ChallengeLevelsRequest", "ChaseRequest", "ChaseResult", "ChaseSide", "ChatRequest",
    "ChatResult", "Cheatsheet", "CheatsheetRequest", "CheckOddsRequest", "CheckOddsResult",
    "CheckRequest", "CollaborateOddsRequest", "CollaborateRequest", "CollaborationOdds",
    "CombatChooseRequest", "CombatDeclareRequest", "CombatRequest", "CombatResolveRequest",
    "CombatStartRequest", "ConflictOddsRequest", "ConflictRequest", "CreatedCharacter",
    "DestinyAfterRequest", "DestinyRollRequest", "DuelRequest", "DuelResult", "EncounterRequest",
    "EntryOdds", "Event", "FightRequest", "GroupMember", "LabcatsBuildRequest",
    "LabcatsOddsRequest", "LabcatsRollRequest", "LabcatsTroubleRequest", "NewCharacterRequest",
    "NpcNewRequest", "NpcShowRequest", "Played", "PoolsRequest", "PowerlessRequest", "Request",
    "RollRequest", "ShownStatblock", "StepRequest", "StrikeRequest", "Struck", "SummonRequest",
    "Table", "TableListRequest", "TableListing", "TableOdds", "TableOddsRequest",
    "TableRollRequest", "TableRow", "TrackRequest", "TrackSet", "TroubleResult", "ValidateRequest",
    "WeatherRequest", "all_actions", "assist", "boons_accumulate", "boons_check", "boons_contest",
    "boons_difficulty", "boons_group", "boons_scatter", "boons_track", "boons_twist", "cast",
    "challenge_levels", "character_pools", "character_step", "check", "collaborate",
    "combat_chase", "combat_choose", "combat_declare", "combat_replay", "combat_resolve",
    "combat_start", "combat_status", "combat_take_back", "conflict", "destiny_after",
    "destiny_roll", "encounter", "is_read", "labcats_build", "labcats_roll", "labcats_trouble",
    "new_character", "npc_bestiary", "npc_new", "npc_show", "odds_accumulate", "odds_advise",
    "odds_assist", "odds_boons", "odds_cheatsheet", "odds_check", "odds_collaborate",
    "odds_conflict", "odds_duel", "odds_fight", "odds_labcats", "perform", "powerless", "roll",
    "say", "shown_statblock", "strike", "summon", "table_list", "table_odds", "table_roll",
    "tables_in_force", "validate_character", "weather",
]  # fmt: skip

_HOMES = {
    "taletable.play.context": ("Table",),
    "taletable.play.events": ("Event", "Played"),
    "taletable.play.registry": ("ACTIONS", "Action", "all_actions", "is_read", "perform"),
    "taletable.play.requests": ("Request",),
    "taletable.play.cogent_checks": (
        "AssistRequest", "ChallengeLevelsRequest", "CheckRequest", "CollaborateRequest",
        "ConflictRequest", "DestinyRollRequest", "PowerlessRequest", "assist",
        "challenge_levels", "check", "collaborate", "conflict", "destiny_roll", "powerless",
    ),
    "taletable.play.odds_cogent": (
        "AdviceOdds",
        "AdviseRequest",
        "AssistOdds",
        "AssistOddsRequest",
        "CheckOddsRequest",
        "CheckOddsResult",
        "CollaborateOddsRequest",
        "CollaborationOdds",
        "ConflictOddsRequest",
        "odds_advise",
        "odds_assist",
        "odds_check",
        "odds_collaborate",
        "odds_conflict",
    ),
    "taletable.play.odds_combat": (
        "DuelRequest", "DuelResult", "FightRequest", "odds_duel", "odds_fight",
    ),
    "taletable.play.odds_systems": (
        "BoonsOdds",
        "BoonsOddsRequest",
        "Cheatsheet",
        "CheatsheetRequest",
        "LabcatsOddsRequest",
        "odds_boons",
        "odds_cheatsheet",
        "odds_labcats",
    ),
    "taletable.play.dice_notation": (
        "RollRequest", "roll",
    ),
    "taletable.play.boons": (
        "BoonsCheckRequest", "BoonsContestRequest", "BoonsDifficultyRequest", "BoonsGroupRequest",
        "BoonsScatterRequest", "BoonsTwistRequest", "GroupMember", "boons_check", "boons_contest",
        "boons_difficulty", "boons_group", "boons_scatter", "boons_twist",
    ),
    "taletable.play.boons_tracks": (
        "AccumulateRequest", "AccumulationOdds", "AccumulationOddsRequest", "TrackRequest",
        "TrackSet", "boons_accumulate", "boons_track", "odds_accumulate",
    ),
    "taletable.play.labcats": (
        "LabcatsBuildRequest", "LabcatsRollRequest", "LabcatsTroubleRequest", "TroubleResult",
        "labcats_build", "labcats_roll", "labcats_trouble",
    ),
    "taletable.play.tables": ( "EntryOdds", "TableOdds", "TableOddsRequest", "table_odds",
        "TableListRequest", "TableListing", "TableRollRequest", "TableRow", "table_list",
        "table_roll", "tables_in_force",
    ),
    "taletable.play.narrator": (
        "BestiaryEntry", "BestiaryListing", "BestiaryRequest", "EncounterRequest",
        "WeatherRequest", "encounter", "npc_bestiary", "weather",
    ),
    "taletable.play.character_creation": (
        "CreatedCharacter", "NewCharacterRequest", "StepRequest", "ValidateRequest",
        "character_step", "new_character", "validate_character",
    ),
    "taletable.play.cogent_magic": ("CastRequest", "SummonRequest", "cast", "summon"),
    "taletable.play.cogent_followups": ("DestinyAfterRequest", "destiny_after"),
    "taletable.play.combat": (
        "CombatChooseRequest", "CombatDeclareRequest", "CombatRequest", "CombatResolveRequest",
        "CombatStartRequest", "combat_choose", "combat_declare", "combat_replay", "combat_resolve",
        "combat_start", "combat_status",
    ),
    "taletable.play.npcs": (
        "NpcNewRequest", "NpcShowRequest", "ShownStatblock", "npc_new", "npc_show",
        "shown_statblock",
    ),
    "taletable.play.characters": ("PoolsRequest", "character_pools"),
    "taletable.play.chat": ("ChatRequest", "ChatResult", "say"),
    "taletable.play.combat_chase": ("ChaseRequest", "ChaseResult", "ChaseSide", "combat_chase"),
    "taletable.play.undo": ("StrikeRequest", "Struck", "combat_take_back", "strike"),
}  # fmt: skip
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    """Import a public name from its module the first time it is asked for (PEP 562)."""
    if name not in _HOME_OF:
        raise AttributeError(f"module 'taletable.play' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME_OF[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
