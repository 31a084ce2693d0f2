"""Languages: which one to speak, and the translation helpers every user-facing string goes through.

The language comes from an explicit choice (`--lang`), else from the environment the way gettext reads it
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG: the first one set wins; LANGUAGE may list several, tried in order), else
English. Catalogs are compiled `.mo` files under `p2pdurak/locale/`; English is the source language and needs none.

Strings are marked where they are written with `N_()` (a plain message), `NC_()` (a message with a context, for short
or ambiguous msgids) and `NP_()` (a message with a plural), so `tools/i18n_catalogs.py` can extract them; they are
translated where they are shown, with `_()` / `gettext()`, `ngettext()` or `format_plural()`, after `install()`.
"""

from __future__ import annotations

import argparse
import functools
import gettext as _gettext
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from p2pdurak.errors import LocalError

DOMAIN = "p2pdurak"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE = "en"
SUPPORTED_LANGUAGES: tuple[str, ...] = ("en", "de", "nl", "sv", "ru")
# Each language's name in itself, for a language menu.
LANGUAGE_NAMES: Mapping[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "nl": "Nederlands",
    "sv": "Svenska",
    "ru": "Русский",
}
# gettext's order: the first variable that is set and non-empty decides.
ENVIRONMENT_VARIABLES: tuple[str, ...] = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
_C_LOCALES = frozenset({"c", "posix"})


@dataclass(frozen=True, slots=True)
class Contextual:
    """A msgid with a context (msgctxt): the same English word may need different translations."""

    context: str
    message: str


@dataclass(frozen=True, slots=True)
class Plural:
    """A msgid with its plural; every form carries the same `{placeholders}` (Russian uses form 0 for 21, too)."""

    singular: str
    plural: str
    context: str | None = None


def N_(message: str) -> str:
    """Mark a message for extraction; it is translated later, where it is shown."""
    return message


def NC_(context: str, message: str) -> Contextual:
    """Mark a message with a context for extraction."""
    return Contextual(context, message)


def NP_(singular: str, plural: str, context: str | None = None) -> Plural:
    """Mark a message with a plural for extraction."""
    return Plural(singular, plural, context)


def normalize_language(tag: str) -> str | None:
    """`de_DE.UTF-8@euro`, `de-AT`, `DE` -> `de`; None for an unsupported language or the C locale."""
    base = tag.strip().split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0].lower()
    return base if base in SUPPORTED_LANGUAGES else None


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language gettext would pick from the environment among ours, English if none fits."""
    env = os.environ if environ is None else environ
    for variable in ENVIRONMENT_VARIABLES:
        value = env.get(variable, "")
        if not value:
            continue
        for entry in value.split(":"):
            if entry.strip().split(".", 1)[0].lower() in _C_LOCALES:
                return SOURCE_LANGUAGE  # gettext stops at the C locale
            lang = normalize_language(entry)
            if lang is not None:
                return lang
        return SOURCE_LANGUAGE  # only the first variable that is set counts, as in gettext
    return SOURCE_LANGUAGE


def choose_language(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """An explicit choice wins (and must be one we speak); otherwise the environment decides."""
    if explicit:
        lang = normalize_language(explicit)
        if lang is None:
            choices = ", ".join(SUPPORTED_LANGUAGES)
            raise LocalError("unknown-language", f"{explicit!r} is not one of {choices}")
        return lang
    return language_from_environment(environ)


@functools.cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalog of one supported language (English: the identity)."""
    if lang not in SUPPORTED_LANGUAGES:
        raise LocalError("unknown-language", repr(lang))
    if lang == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    mo_path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with mo_path.open("rb") as fp:
            return _gettext.GNUTranslations(fp)
    except (OSError, ValueError):  # a missing or broken catalog must not stop the game: speak English
        return _gettext.NullTranslations()


_state: dict[str, str] = {"lang": SOURCE_LANGUAGE}


def install(lang: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """Choose the language for this process (explicit, else environment) and return it."""
    chosen = choose_language(lang, environ)
    translations(chosen)
    _state["lang"] = chosen
    return chosen


def current_language() -> str:
    return _state["lang"]


def _catalog() -> _gettext.NullTranslations:
    return translations(_state["lang"])


def gettext(message: str | Contextual) -> str:
    """Translate a message (a `Contextual` is looked up under its context)."""
    if isinstance(message, Contextual):
        return _catalog().pgettext(message.context, message.message)
    return _catalog().gettext(message)


_ = gettext


def pgettext(context: str, message: str) -> str:
    return _catalog().pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalog().ngettext(singular, plural, n)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _catalog().npgettext(context, singular, plural, n)


def translate_plural(message: Plural, n: int) -> str:
    if message.context is None:
        return ngettext(message.singular, message.plural, n)
    return npgettext(message.context, message.singular, message.plural, n)


def format_plural(message: Plural, n: int, **fields: object) -> str:
    """Translate for `n` and fill in `{n}` and the other named placeholders."""
    return translate_plural(message, n).format(n=n, **fields)


def _language_argument(text: str) -> str:
    lang = normalize_language(text)
    if lang is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(SUPPORTED_LANGUAGES)}")
    return lang


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    """The one `--lang` option every command that talks to people offers (`de`, `de_DE.UTF-8` ... -> `de`)."""
    parser.add_argument(
        "--lang",
        metavar="LANG",
        type=_language_argument,
        default=None,
        help=f"language: {', '.join(SUPPORTED_LANGUAGES)} (default: from LANGUAGE, LC_ALL, LC_MESSAGES, LANG)",
    )
