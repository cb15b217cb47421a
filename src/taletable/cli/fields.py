"""The CLI's words for the engine's fields: an error about ``challenge_level`` names ``--cl``.

The engine and ``play`` name the fields of a request (``pool``, ``challenge_level``,
``faces_a``); a person typed flags. When an InputError reaches the CLI, the command that was run
is found again from the arguments and the field is renamed to the option (or argument) that
fills it, so the message names what the person typed.
"""

from __future__ import annotations

from collections.abc import Sequence

import click

from taletable.errors import InputError, RulesError

__all__ = ["leaf_command", "name_flag", "option_for", "spell_rule_flags"]


def leaf_command(group: click.Group, argv: Sequence[str]) -> click.Command | None:
    """The command ``argv`` runs under ``group`` (parsed leniently; None if it names none)."""
    try:
        context = group.make_context("taletable", list(argv), resilient_parsing=True)
        command: click.Command = group
        while isinstance(command, click.Group):
            arguments = [*context._protected_args, *context.args]
            if not arguments:  # a group that runs itself (`odds cogent --pool 4`) is the command
                return command if command.invoke_without_command and command is not group else None
            name, found, rest = command.resolve_command(context, arguments)
            if found is None or name is None:
                return None
            context = found.make_context(name, rest, parent=context, resilient_parsing=True)
            command = found
        return command
    except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
        return None


def option_for(field: str, command: click.Command) -> str | None:
    """The option or argument of ``command`` that fills the request's ``field``."""
    wanted = field.replace("-", "_")
    for parameter in command.params:
        spelled = [option.lstrip("-").replace("-", "_") for option in parameter.opts]
        if parameter.name == wanted or wanted in spelled:
            if isinstance(parameter, click.Argument):
                return parameter.human_readable_name
            return max(parameter.opts, key=len)
    return None


def name_flag(error: InputError, group: click.Group, argv: Sequence[str]) -> InputError:
    """``error`` naming the flag the person typed instead of the engine's field, if one fills it.

    A field naming several (``character/skill``) is spelled as their flags
    (``--character/--skill``).
    """
    command = leaf_command(group, argv)
    if command is None:
        return error
    words = _spelled(error.mentions, command)
    head, _, rest = error.field.partition(".")
    heads = [] if error.field.startswith("-") else head.split("/")
    options = [spelled for part in heads if (spelled := option_for(part, command))]
    option = "/".join(options) if heads and len(options) == len(heads) else None
    field = option + (f".{rest}" if rest else "") if option else error.field
    if field == error.field and not words:
        return error
    return error.renamed(field, words)


def spell_rule_flags(error: RulesError, group: click.Group, argv: Sequence[str]) -> RulesError:
    """``error`` spelling each field its message mentions as the flag that fills it."""
    command = leaf_command(group, argv) if error.mentions else None
    if command is None:
        return error
    words = _spelled(error.mentions, command)
    return error.renamed(words) if words else error


def _spelled(mentions: Sequence[str], command: click.Command) -> dict[str, str]:
    """Each mentioned field that an option of ``command`` fills, spelled as that option."""
    return {
        mention: option
        for mention in mentions
        if (option := option_for(mention, command)) is not None
    }
