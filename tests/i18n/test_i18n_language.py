"""Choosing the language (explicit, environment, fallback) and the translation helpers."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak import i18n, i18n_strings
from p2pdurak.cards import CLUBS, DIAMONDS, HEARTS, SPADES, make_card
from p2pdurak.errors import LocalError


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("de", "de"),
        ("DE", "de"),
        ("de_DE", "de"),
        ("de_DE.UTF-8", "de"),
        ("de_AT.utf8@euro", "de"),
        ("nl-BE", "nl"),
        ("sv_SE.ISO-8859-1", "sv"),
        ("ru_RU.KOI8-R", "ru"),
        ("en_GB", "en"),
        (" ru ", "ru"),
        ("fr_FR.UTF-8", None),
        ("pt_BR", None),
        ("C", None),
        ("POSIX", None),
        ("", None),
        ("deutsch", None),
    ],
)
def test_normalize_language(tag: str, expected: str | None) -> None:
    assert i18n.normalize_language(tag) == expected


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LC_MESSAGES": "nl_NL.UTF-8", "LANG": "de_DE.UTF-8"}, "nl"),
        ({"LC_ALL": "sv_SE.UTF-8", "LC_MESSAGES": "nl_NL", "LANG": "de_DE"}, "sv"),
        ({"LANGUAGE": "ru", "LC_ALL": "sv_SE.UTF-8", "LANG": "de_DE"}, "ru"),
        # LANGUAGE lists several languages: the first one we speak wins.
        ({"LANGUAGE": "fr:pt_BR:nl:de", "LANG": "ru_RU.UTF-8"}, "nl"),
        # An empty variable does not count; the next one decides.
        ({"LANGUAGE": "", "LC_ALL": "", "LANG": "sv_SE.UTF-8"}, "sv"),
        # Only the first variable that is set counts (as in gettext): fr alone means English, not LANG's German.
        ({"LANGUAGE": "fr", "LANG": "de_DE.UTF-8"}, "en"),
        # gettext stops at the C locale.
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LANGUAGE": "fr:C:de"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        # Other variables are no language setting.
        ({"LC_CTYPE": "de_DE.UTF-8"}, "en"),
    ],
)
def test_language_from_environment(environ: dict[str, str], expected: str) -> None:
    assert i18n.language_from_environment(environ) == expected


def test_language_from_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in i18n.ENVIRONMENT_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    assert i18n.language_from_environment() == "nl"
    assert i18n.install() == "nl"
    assert i18n.current_language() == "nl"


@given(st.dictionaries(st.sampled_from(["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "LC_CTYPE"]), st.text()))
def test_environment_never_fails(environ: dict[str, str]) -> None:
    assert i18n.language_from_environment(environ) in i18n.SUPPORTED_LANGUAGES


def test_explicit_choice_wins_over_environment() -> None:
    env = {"LANGUAGE": "ru", "LANG": "de_DE.UTF-8"}
    assert i18n.choose_language("sv", env) == "sv"
    assert i18n.choose_language("en", env) == "en"
    assert i18n.choose_language(None, env) == "ru"
    assert i18n.choose_language("", env) == "ru"


def test_explicit_unknown_language_is_refused() -> None:
    with pytest.raises(LocalError) as caught:
        i18n.choose_language("fr", {})
    assert caught.value.reason == "unknown-language"
    with pytest.raises(LocalError):
        i18n.translations("xx")


def test_supported_languages() -> None:
    assert i18n.SUPPORTED_LANGUAGES == ("en", "de", "nl", "sv", "ru")
    assert set(i18n.LANGUAGE_NAMES) == set(i18n.SUPPORTED_LANGUAGES)
    for lang in i18n.SUPPORTED_LANGUAGES[1:]:
        assert (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "p2pdurak.mo").is_file()


def test_install_switches_translations() -> None:
    assert i18n.install("de") == "de"
    assert i18n._(i18n_strings.LABEL_TABLE) == "Tisch"
    i18n.install("ru")
    assert i18n.gettext(i18n_strings.LABEL_TABLE) == "Стол"
    i18n.install("en")
    assert i18n.gettext(i18n_strings.LABEL_TABLE) == "Table"


def test_context_separates_equal_msgids() -> None:
    i18n.install("de")
    assert i18n.gettext(i18n_strings.RANK_JACK_SHORT) == "B"
    assert i18n.pgettext("short rank", "Q") == "D"
    assert i18n.gettext("Q") == "Q"  # without its context the msgid is not in the catalog
    i18n.install("ru")
    assert [i18n.gettext(i18n_strings.RANK_SHORT[r]) for r in (11, 12, 13, 14)] == ["В", "Д", "К", "Т"]
    i18n.install("en")
    assert i18n.gettext(i18n_strings.RANK_ACE_SHORT) == "A"


TERMS = (
    i18n_strings.TERM_KOZYR,
    i18n_strings.TERM_BERU,
    i18n_strings.TERM_BITO,
    i18n_strings.TERM_POGONY,
    i18n_strings.GAME_NAME,
    i18n_strings.VARIANT_PODKIDNOY,
    i18n_strings.VARIANT_PEREVODNOY,
)


@pytest.mark.parametrize("lang", ["en", "de", "nl", "sv"])
def test_russian_terms_stay_transliterated(lang: str) -> None:
    i18n.install(lang)
    assert [i18n.gettext(t) for t in TERMS] == ["Kozyr", "Beru", "Bito", "Pogony", "Durak", "Podkidnoy", "Perevodnoy"]


def test_russian_terms_in_cyrillic() -> None:
    i18n.install("ru")
    assert [i18n.gettext(t) for t in TERMS] == ["Козырь", "Беру", "Бито", "Погоны", "Дурак", "Подкидной", "Переводной"]


@pytest.mark.parametrize(
    ("n", "expected"),
    [(1, "Колода: 1 карта"), (2, "Колода: 2 карты"), (4, "Колода: 4 карты"), (5, "Колода: 5 карт"),
     (11, "Колода: 11 карт"), (12, "Колода: 12 карт"), (21, "Колода: 21 карта"), (22, "Колода: 22 карты"),
     (0, "Колода: 0 карт")],
)
def test_russian_plural_forms(n: int, expected: str) -> None:
    i18n.install("ru")
    assert i18n.format_plural(i18n_strings.LABEL_STOCK, n) == expected


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [("en", "Stock: 1 card", "Stock: 7 cards"), ("de", "Stapel: 1 Karte", "Stapel: 7 Karten"),
     ("nl", "Stapel: 1 kaart", "Stapel: 7 kaarten"), ("sv", "Talong: 1 kort", "Talong: 7 kort")],
)
def test_two_form_plurals(lang: str, one: str, many: str) -> None:
    i18n.install(lang)
    assert i18n.format_plural(i18n_strings.LABEL_STOCK, 1) == one
    assert i18n.format_plural(i18n_strings.LABEL_STOCK, 7) == many
    assert i18n.ngettext("Stock: {n} card", "Stock: {n} cards", 7).format(n=7) == many


def test_format_plural_fills_named_fields() -> None:
    i18n.install("de")
    text = i18n.format_plural(i18n_strings.RESULT_PLAYER_POGONY, 2, player="Anna")
    assert text == "Pogony! Anna bekommt Schulterstücke: 2 Sechsen."


def test_markers_return_their_arguments() -> None:
    assert i18n.N_("x") == "x"
    assert i18n.NC_("c", "x") == i18n.Contextual("c", "x")
    assert i18n.NP_("a", "b") == i18n.Plural("a", "b", None)
    assert i18n.translate_plural(i18n.NP_("{n} x", "{n} xs", context="ctx"), 2) == "{n} xs"


def test_unknown_message_falls_back_to_english() -> None:
    i18n.install("sv")
    assert i18n.gettext("a message nobody translated") == "a message nobody translated"
    assert i18n.ngettext("one thing", "{n} things", 3) == "{n} things"


def test_lang_argument() -> None:
    parser = argparse.ArgumentParser()
    i18n.add_lang_argument(parser)
    assert parser.parse_args([]).lang is None
    assert parser.parse_args(["--lang", "ru"]).lang == "ru"
    assert parser.parse_args(["--lang", "de_DE.UTF-8"]).lang == "de"
    with pytest.raises(SystemExit):
        parser.parse_args(["--lang", "fr"])


@pytest.mark.parametrize(
    ("lang", "jack_of_spades", "ace_of_hearts", "suit"),
    [("en", "J♠", "A♥", "clubs"), ("de", "B♠", "A♥", "Kreuz"), ("nl", "B♠", "A♥", "klaveren"),
     ("sv", "Kn♠", "E♥", "klöver"), ("ru", "В♠", "Т♥", "трефы")],
)
def test_cards_for_people(lang: str, jack_of_spades: str, ace_of_hearts: str, suit: str) -> None:
    i18n.install(lang)
    assert i18n_strings.card_text(make_card(11, SPADES)) == jack_of_spades
    assert i18n_strings.card_text(make_card(14, HEARTS)) == ace_of_hearts
    assert i18n_strings.card_text(make_card(10, DIAMONDS)) == "10♦"
    assert i18n_strings.card_text(make_card(6, CLUBS)) == "6♣"
    assert i18n_strings.suit_name(CLUBS) == suit
