"""`p2pdurak rules` in every language: translated, complete, at most 80 columns, no colour codes."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak import cli, i18n
from p2pdurak.commands import rules

LANGS = i18n.SUPPORTED_LANGUAGES
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert cli.main(["rules", *argv]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("lang", LANGS)
def test_rules_in_every_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "--lang", lang)
    catalog = i18n.translations(lang)
    title = catalog.gettext(rules.TITLE)
    assert out.splitlines()[0] == title
    if lang != "en":
        assert title != rules.TITLE
    flat = _flat(out.replace("•", " "))
    for section in rules.SECTIONS:
        assert catalog.gettext(section.title) in out.splitlines()
        for paragraph in section.paragraphs:
            assert _flat(catalog.gettext(paragraph)) in flat  # nothing lost or cut by the wrapping
    for term, meaning in rules.VOCABULARY:
        assert catalog.gettext(term) in out
        assert _flat(catalog.gettext(meaning)) in flat
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert not any(line != line.rstrip() for line in lines)
    assert _ANSI.search(out) is None  # not a terminal: plain text
    assert "p2pdurak verify" in out  # a command is never broken across lines


def test_russian_rules_use_russian_terms(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "--lang", "ru")
    for word in ("Дурак", "Бито", "Беру", "Козырь", "Погоны", "Подкидной", "Переводной"):
        assert word in out
    assert "Bito" not in out and "Kozyr" not in out


@pytest.mark.parametrize("lang", ["en", "de", "nl", "sv"])
def test_other_rules_keep_transliterated_terms(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "--lang", lang)
    for word in ("Durak", "Bito", "Beru", "Kozyr", "Pogony", "Podkidnoy", "Perevodnoy"):
        assert word in out


def test_language_from_environment(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for variable in i18n.ENVIRONMENT_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    assert _run(capsys).splitlines()[0] == i18n.translations("sv").gettext(rules.TITLE)
    monkeypatch.setenv("LANGUAGE", "fr:nl")
    assert _run(capsys).splitlines()[0] == i18n.translations("nl").gettext(rules.TITLE)
    assert _run(capsys, "--lang", "de").splitlines()[0] == i18n.translations("de").gettext(rules.TITLE)
    monkeypatch.setenv("LANGUAGE", "fr")
    assert _run(capsys).splitlines()[0] == rules.TITLE


def test_unknown_language_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["rules", "--lang", "fr"])
    assert caught.value.code == 2
    assert "fr" in capsys.readouterr().err


def test_colour_codes_follow_the_terminal_and_no_color(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich: behave as on a terminal
    monkeypatch.delenv("NO_COLOR", raising=False)
    styled = _run(capsys, "--lang", "de")
    assert _ANSI.search(styled) is not None  # bold headings on a terminal
    monkeypatch.setenv("NO_COLOR", "1")
    plain = _run(capsys, "--lang", "de")
    colours = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")
    assert colours.search(plain) is None
    assert _ANSI.sub("", plain) == _ANSI.sub("", styled)


@given(st.integers(min_value=30, max_value=140), st.sampled_from(LANGS))
def test_render_fits_any_width(width: int, lang: str) -> None:
    i18n.install(lang)
    try:
        lines = [line.plain for line in rules.render(width, "-")]
    finally:
        i18n.install("en")
    assert max(len(line) for line in lines) <= width
    assert _flat(" ".join(lines)).startswith(i18n.translations(lang).gettext(rules.TITLE))
    assert not any("•" in line for line in lines)


def test_ascii_terminal_gets_an_ascii_bullet() -> None:
    class Ascii:
        encoding = "ascii"

    assert rules._encodes(Ascii(), "•") is False
    assert rules._encodes(sys.stdout, "x") is True


def test_rules_command_as_a_process() -> None:
    env = {k: v for k, v in os.environ.items() if k not in i18n.ENVIRONMENT_VARIABLES}
    env |= {"LANGUAGE": "ru", "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "p2pdurak", "rules"], capture_output=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("utf-8")
    assert out.splitlines()[0] == "Дурак: правила игры в p2pdurak"
    assert _ANSI.search(out) is None
