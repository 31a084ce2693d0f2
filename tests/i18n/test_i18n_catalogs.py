"""The shipped catalogs are complete and compiled; the stdlib catalog tool reads, writes and compiles correctly."""

from __future__ import annotations

import gettext
import io
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak import i18n
from tools.i18n_catalogs import (
    LOCALE,
    PLURAL_FORMS,
    POT_PATH,
    Catalog,
    CatalogError,
    Entry,
    check,
    compile_mo,
    entry_problems,
    extract,
    extract_file,
    merge,
    mo_path,
    parse_po,
    po_header,
    po_path,
    po_title,
    render_po,
    render_pot,
)

# ------------------------------------------------------------------------------------------ the shipped catalogs


def test_shipped_catalogs_are_complete_and_up_to_date() -> None:
    """Fails when a message was added or changed in the code without `tools/i18n_catalogs.py all` + translations."""
    assert check() == []


def test_languages_of_the_tool_and_the_package_agree() -> None:
    assert set(PLURAL_FORMS) == set(i18n.SUPPORTED_LANGUAGES) - {i18n.SOURCE_LANGUAGE}


@pytest.mark.parametrize("lang", sorted(PLURAL_FORMS))
def test_every_message_translates_through_python_gettext(lang: str) -> None:
    """Read the .mo the way the game does and compare with the .po: nothing lost in compilation."""
    template = parse_po(POT_PATH.read_text(encoding="utf-8"))
    catalog = parse_po(po_path(lang).read_text(encoding="utf-8")).by_key()
    translations = i18n.translations(lang)
    assert template.entries
    for entry in template.entries:
        po_entry = catalog[entry.key]
        assert not po_entry.fuzzy
        if entry.msgid_plural is None:
            got = (
                translations.gettext(entry.msgid)
                if entry.context is None
                else translations.pgettext(entry.context, entry.msgid)
            )
            assert got == po_entry.msgstr[0] != ""
        else:
            assert entry.context is None  # no plural with context yet; extend the lookup below if one appears
            samples = {0: 21, 1: 3, 2: 11} if len(po_entry.msgstr) == 3 else {0: 1, 1: 5}
            for form, n in samples.items():
                assert translations.ngettext(entry.msgid, entry.msgid_plural, n) == po_entry.msgstr[form] != ""


def test_pot_lists_the_client_strings_module() -> None:
    pot = parse_po(POT_PATH.read_text(encoding="utf-8"))
    references = {r for e in pot.entries for r in e.references}
    assert {"p2pdurak/i18n_strings.py", "p2pdurak/commands/rules.py"} <= references
    podkidnoy = pot.by_key()[(None, "Podkidnoy")]
    assert podkidnoy.extracted and podkidnoy.extracted[0].startswith("Translators:")


# ------------------------------------------------------------------------------------------------ .po read/write

PO_SAMPLE = r'''# a translator's note
msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#. Translators: shown on the table
#: p2pdurak/a.py p2pdurak/b.py
#, python-format
msgid "Table"
msgstr "Tisch"

msgctxt "role"
msgid "Out"
msgstr "Raus"

msgid ""
"a \"quoted\" word, a back\\slash, a tab\t"
"and a newline\n"
msgstr "ein \"Wort\"\n"

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n} Karte"
msgstr[1] "{n} Karten"

#, fuzzy
msgid "old"
msgstr "alt"

#~ msgid "obsolete"
#~ msgstr "veraltet"
'''


def test_parse_po_sample() -> None:
    catalog = parse_po(PO_SAMPLE)
    assert catalog.header.startswith("Language: de\n")
    by_key = catalog.by_key()
    odd = 'a "quoted" word, a back\\slash, a tab\tand a newline\n'
    assert set(by_key) == {(None, "Table"), ("role", "Out"), (None, odd), (None, "{n} card"), (None, "old")}
    table = by_key[(None, "Table")]
    assert table.msgstr == ("Tisch",)
    assert table.extracted == ("Translators: shown on the table",)
    assert table.references == ("p2pdurak/a.py", "p2pdurak/b.py")
    assert table.flags == ("python-format",)
    assert by_key[("role", "Out")].msgstr == ("Raus",)
    assert by_key[(None, "{n} card")].msgid_plural == "{n} cards"
    assert by_key[(None, "{n} card")].msgstr == ("{n} Karte", "{n} Karten")
    assert by_key[(None, "old")].fuzzy
    assert catalog.entries[0].comments == ()


@pytest.mark.parametrize(
    "bad",
    [
        'msgid "a"\n',  # no msgstr
        'msgid "a"\nmsgstr "b"\nmsgstr "c"\n',
        'msgid "a"\nmsgstr "b\\q"\n',  # unknown escape
        'msgid "a"\nmsgstr "b"c"\n',  # unescaped quote
        'msgid "a"\nmsgstr b\n',  # unquoted
        '"stray"\n',
        'msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n',  # duplicate
        'msgid "a"\nmsgid_plural "as"\nmsgstr "b"\n',  # plural needs msgstr[n]
        'msgid "a"\nmsgid_plural "as"\nmsgstr[1] "b"\n',  # msgstr[0] missing
        'msgid "a"\nmsgstr[x] "b"\n',
        'msgid "a"\nmsgstr "b"\nmsgid ""\nmsgstr "late header"\n',
        'msgfoo "a"\n',
    ],
)
def test_parse_po_refuses_bad_input(bad: str) -> None:
    with pytest.raises(CatalogError):
        parse_po(bad)


# Any text but NUL and EOT (the .mo separators) and the line breaks str.splitlines knows besides \n.
_NOT_IN_MESSAGES = "\x00\x04\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
po_text = st.text(st.characters(exclude_categories=["Cs"], exclude_characters=_NOT_IN_MESSAGES), max_size=200)


@given(st.lists(st.tuples(po_text.filter(bool), po_text, st.booleans()), max_size=8, unique_by=lambda t: t[0]))
def test_render_then_parse_round_trips(items: list[tuple[str, str, bool]]) -> None:
    catalog = Catalog(
        header=po_header("de"),
        entries=[
            Entry(msgid=m, msgstr=(s,), flags=("fuzzy",) if f else (), references=("p2pdurak/x.py",))
            for m, s, f in items
        ],
    )
    again = parse_po(render_po(catalog, "title"))
    assert again.header == catalog.header
    assert again.entries == catalog.entries


def test_long_strings_are_wrapped_to_79_columns() -> None:
    catalog = Catalog(header=po_header("sv"), entries=[Entry(msgid="word " * 60, msgstr=("ord " * 60,))])
    text = render_po(catalog, "t")
    assert max(len(line) for line in text.splitlines()) <= 79
    assert parse_po(text).entries == catalog.entries


# ---------------------------------------------------------------------------------------------------- .mo files


@given(st.lists(st.tuples(po_text.filter(bool), po_text.filter(bool)), max_size=10, unique_by=lambda t: t[0]))
def test_compiled_mo_is_what_python_gettext_reads(items: list[tuple[str, str]]) -> None:
    catalog = Catalog(header=po_header("de"), entries=[Entry(msgid=m, msgstr=(s,)) for m, s in items])
    translations = gettext.GNUTranslations(io.BytesIO(compile_mo(catalog)))
    for msgid, msgstr in items:
        assert translations.gettext(msgid) == msgstr


def test_mo_plurals_contexts_and_left_out_entries() -> None:
    catalog = Catalog(
        header=po_header("ru"),
        entries=[
            Entry(msgid="{n} card", msgid_plural="{n} cards", msgstr=("{n} карта", "{n} карты", "{n} карт")),
            Entry(msgid="J", context="short rank", msgstr=("В",)),
            Entry(msgid="fuzzy one", msgstr=("неточно",), flags=("fuzzy",)),
            Entry(msgid="untranslated", msgstr=("",)),
            Entry(msgid="half", msgid_plural="halves", msgstr=("пол", "", "")),
        ],
    )
    t = gettext.GNUTranslations(io.BytesIO(compile_mo(catalog)))
    assert [t.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 3, 5, 21)] == [
        "1 карта", "3 карты", "5 карт", "21 карта"]
    assert t.pgettext("short rank", "J") == "В"
    assert t.gettext("J") == "J"
    assert t.gettext("fuzzy one") == "fuzzy one"
    assert t.gettext("untranslated") == "untranslated"
    assert t.ngettext("half", "halves", 2) == "halves"
    assert compile_mo(catalog) == compile_mo(catalog)  # deterministic


# ------------------------------------------------------------------------------------------------------- checks


def _problems(
    msgid: str, msgstr: tuple[str, ...], plural: str | None = None, lang: str = "de", flags: tuple[str, ...] = ()
) -> list[str]:
    return entry_problems(Entry(msgid=msgid, msgid_plural=plural, msgstr=msgstr, flags=flags), lang)


def test_entry_checks() -> None:
    assert _problems("{player} takes", ("{player} nimmt",)) == []
    assert _problems("Table", ("",)) != []
    assert _problems("Table", ("Tisch",), flags=("fuzzy",)) != []
    assert _problems("{player} takes", ("{spieler} nimmt",)) != []  # renamed placeholder
    assert _problems("{player} takes", ("nimmt",)) != []  # lost placeholder
    assert _problems("takes", ("{player} nimmt",)) != []  # invented placeholder
    assert _problems("{player} takes", ("{player nimmt",)) != []  # unbalanced brace
    assert _problems("{x!r}", ("{x}",)) != []  # conversion changed
    assert _problems("line\n", ("Zeile",)) != []  # trailing newline lost
    assert _problems("{n} card", ("{n} Karte", "{n} Karten"), "{n} cards") == []
    assert _problems("{n} card", ("{n} Karte",), "{n} cards") != []  # too few forms
    assert _problems("{n} card", ("{n} карта", "{n} карты", "{n} карт"), "{n} cards", lang="ru") == []
    assert _problems("{n} card", ("{n} карта", "{n} карты", "карт"), "{n} cards", lang="ru") != []
    assert _problems("card", ("Karte", "Karten"), "{n} cards") != []  # msgid and plural disagree


def test_merge_keeps_translations_adds_new_and_drops_obsolete() -> None:
    template = Catalog(entries=[
        Entry(msgid="kept", references=("p2pdurak/a.py",)),
        Entry(msgid="new"),
        Entry(msgid="{n} x", msgid_plural="{n} xs", msgstr=("", "")),
    ])
    old = Catalog(entries=[
        Entry(msgid="kept", msgstr=("behalten",), comments=("checked by Anna",)),
        Entry(msgid="gone", msgstr=("weg",)),
        Entry(msgid="{n} x", msgid_plural="{n} old", msgstr=("{n} a", "{n} b")),
    ])
    merged = merge(template, old, "ru")
    assert [e.msgid for e in merged.entries] == ["kept", "new", "{n} x"]
    kept, new, plural = merged.entries
    assert kept.msgstr == ("behalten",) and kept.comments == ("checked by Anna",)
    assert kept.references == ("p2pdurak/a.py",)
    assert new.msgstr == ("",)
    assert plural.msgstr == ("{n} a", "{n} b", "") and plural.fuzzy  # the English plural changed
    assert "Plural-Forms: nplurals=3" in merged.header


def test_extract_reads_markers_without_importing(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "mod.py").write_text(
        "raise SystemExit('never imported')\n"
        "A = N_('first')\n"
        "# Translators: a card rank\n"
        "# printed on the card\n"
        "B = NC_('rank', 'K')\n"
        "C = NP_('{n} card', '{n} cards')\n"
        "D = _(variable)\n"
        "E = gettext('second')  # Translators: trailing note\n"
        "F = ngettext('one', '{n} many', n)\n"
        "G = i18n.pgettext('ctx', 'third')\n"
        "H = N_('first')\n"
        "I = N_('')\n"
        "J = npgettext('c', 's', 'p', 2)\n"
        "K = NP_('{n} a', '{n} as', context='kind')\n",
        encoding="utf-8",
    )
    entries = extract_file(package / "mod.py", "pkg/mod.py")
    keys = [(e.context, e.msgid, e.msgid_plural) for e in entries]
    assert keys == [
        (None, "first", None), ("rank", "K", None), (None, "{n} card", "{n} cards"), (None, "second", None),
        (None, "one", "{n} many"), ("ctx", "third", None), (None, "first", None), ("c", "s", "p"),
        ("kind", "{n} a", "{n} as"),
    ]
    assert entries[1].extracted == ("Translators: a card rank", "printed on the card")
    assert entries[3].extracted == ("Translators: trailing note",)
    assert entries[0].extracted == ()
    catalog = extract(package, tmp_path)
    assert [e.msgid for e in catalog.entries].count("first") == 1
    assert catalog.entries[0].references == ("pkg/mod.py",)


def test_extract_refuses_one_msgid_with_two_plurals(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("A = NP_('{n} x', '{n} xs')\nB = NP_('{n} x', '{n} xes')\n", encoding="utf-8")
    with pytest.raises(CatalogError):
        extract(package, tmp_path)


def test_check_notices_stale_and_incomplete_catalogs(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "m.py").write_text("A = N_('{player} wins')\n", encoding="utf-8")
    locale = tmp_path / "locale"
    template = extract(package, tmp_path)
    locale.mkdir()
    (locale / "p2pdurak.pot").write_text(render_pot(template), encoding="utf-8")
    for lang in PLURAL_FORMS:
        catalog = merge(template, Catalog(), lang)
        catalog.entries[0] = Entry(msgid="{player} wins", msgstr=(f"{{player}} {lang}",), references=("pkg/m.py",))
        po_path(lang, locale).parent.mkdir(parents=True)
        po_path(lang, locale).write_text(render_po(catalog, po_title(lang)), encoding="utf-8")
        mo_path(lang, locale).write_bytes(compile_mo(catalog))
    assert check(package, locale, tmp_path) == []

    mo_path("sv", locale).write_bytes(b"")
    assert check(package, locale, tmp_path) == ["sv: p2pdurak.mo is stale: run compile"]
    mo_path("sv", locale).write_bytes(compile_mo(parse_po(po_path("sv", locale).read_text(encoding="utf-8"))))

    (package / "m.py").write_text("A = N_('{player} wins')\nB = N_('new message')\n", encoding="utf-8")
    problems = check(package, locale, tmp_path)
    assert "p2pdurak.pot is stale: run tools/i18n_catalogs.py extract" in problems
    assert all(f"{lang}: missing 'new message'" in problems for lang in PLURAL_FORMS)


def test_catalog_copy_is_checkable(tmp_path: Path) -> None:
    """The real locale tree, copied and damaged by one fuzzy flag, fails the check for that language only."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE, locale)
    path = po_path("nl", locale)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('msgid "Table"\n', '#, fuzzy\nmsgid "Table"\n', 1), encoding="utf-8")
    problems = check(locale=locale)
    assert problems and all(p.startswith("nl:") for p in problems)
    assert any("fuzzy" in p for p in problems)
