"""Build and check p2pdurak's gettext catalogs with the standard library only (no Babel, no GNU gettext needed).

    python tools/i18n_catalogs.py extract   # sources -> p2pdurak/locale/p2pdurak.pot
    python tools/i18n_catalogs.py update    # .pot -> every .po (keeps translations, adds new msgids, drops old ones)
    python tools/i18n_catalogs.py compile   # every .po -> .mo
    python tools/i18n_catalogs.py all       # the three above, then check
    python tools/i18n_catalogs.py check     # exit 1 and list the problems if anything is stale or incomplete

Messages are found by reading the source (ast), never by importing it: calls of N_, _, gettext, NC_, pgettext, NP_,
ngettext and npgettext whose message arguments are string literals. A block of comments right above such a call
that starts with "Translators:" goes into the catalog for the translators. References name the file only (no line
numbers), so that editing code around a message does not make every catalog stale.
"""

from __future__ import annotations

import ast
import io
import struct
import sys
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from string import Formatter

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "p2pdurak"
LOCALE = PACKAGE / "locale"
DOMAIN = "p2pdurak"
POT_PATH = LOCALE / f"{DOMAIN}.pot"

# Every translated language and its gettext plural rule.
PLURAL_FORMS: dict[str, str] = {
    "de": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
    "sv": "nplurals=2; plural=(n != 1);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}
LANGUAGE_TEAMS: dict[str, str] = {"de": "German", "nl": "Dutch", "sv": "Swedish", "ru": "Russian"}

# call name -> (positions of context, msgid, msgid_plural) among the positional arguments; -1: absent
_MARKERS: dict[str, tuple[int, int, int]] = {
    "N_": (-1, 0, -1),
    "_": (-1, 0, -1),
    "gettext": (-1, 0, -1),
    "NC_": (0, 1, -1),
    "pgettext": (0, 1, -1),
    "NP_": (2, 0, 1),
    "ngettext": (-1, 0, 1),
    "npgettext": (0, 1, 2),
}
_WIDTH = 79
_MO_MAGIC = 0x950412DE


class CatalogError(Exception):
    """A .po file that cannot be parsed, or sources with contradicting messages."""


@dataclass(frozen=True, slots=True)
class Entry:
    msgid: str
    msgid_plural: str | None = None
    context: str | None = None
    msgstr: tuple[str, ...] = ("",)
    flags: tuple[str, ...] = ()
    extracted: tuple[str, ...] = ()  # "#." comments for translators
    references: tuple[str, ...] = ()  # "#:" source files
    comments: tuple[str, ...] = ()  # "# " translator's own comments

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


@dataclass(slots=True)
class Catalog:
    header: str = ""
    entries: list[Entry] = field(default_factory=list)

    def by_key(self) -> dict[tuple[str | None, str], Entry]:
        return {e.key: e for e in self.entries}


# ---------------------------------------------------------------------------------------------------- extraction


def _comment_lines(source: str) -> dict[int, str]:
    """line number -> comment text, for lines that hold nothing but a comment or end in one."""
    found: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            found[tok.start[0]] = tok.string[1:].strip()
    return found


def _translator_comment(lines: list[str], comments: dict[int, str], lineno: int) -> tuple[str, ...]:
    block: list[str] = []
    line = lineno - 1
    while line >= 1 and line in comments and lines[line - 1].lstrip().startswith("#"):
        block.insert(0, comments[line])
        line -= 1
    if block and block[0].startswith("Translators:"):
        return tuple(block)
    trailing = comments.get(lineno, "")
    return (trailing,) if trailing.startswith("Translators:") else ()


def _literal(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _entry_of_call(node: ast.Call, lines: list[str], comments: dict[int, str], reference: str) -> Entry | None:
    """The message a marker call names, or None when its arguments are not literals (a call that translates)."""
    name = _call_name(node)
    if name not in _MARKERS:
        return None
    ctx_pos, id_pos, plural_pos = _MARKERS[name]

    def arg(pos: int, *keywords: str) -> ast.expr | None:
        if 0 <= pos < len(node.args):
            return node.args[pos]
        return next((k.value for k in node.keywords if k.arg in keywords), None)

    msgid = _literal(arg(id_pos, "message", "singular"))
    if not msgid:
        return None
    msgid_plural = None
    if plural_pos >= 0:
        msgid_plural = _literal(arg(plural_pos, "plural"))
        if msgid_plural is None:
            return None
    context = None
    if ctx_pos >= 0:
        ctx_node = arg(ctx_pos, "context")
        context = _literal(ctx_node)
        if context is None and ctx_node is not None and not _is_none(ctx_node):
            return None
    return Entry(
        msgid=msgid,
        msgid_plural=msgid_plural,
        context=context,
        msgstr=("", "") if msgid_plural is not None else ("",),
        extracted=_translator_comment(lines, comments, node.lineno),
        references=(reference,),
    )


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def extract_file(path: Path, reference: str) -> list[Entry]:
    """The marked messages of one file in source order (ast.walk is breadth-first, so sort by position)."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    comments = _comment_lines(source)
    lines = source.splitlines()
    found: list[tuple[int, int, Entry]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            entry = _entry_of_call(node, lines, comments, reference)
            if entry is not None:
                found.append((node.lineno, node.col_offset, entry))
    found.sort(key=lambda t: (t[0], t[1]))
    return [e for _, _, e in found]


def _source_files(package: Path) -> list[Path]:
    return sorted(p for p in package.rglob("*.py") if "__pycache__" not in p.parts)


def extract(package: Path = PACKAGE, root: Path = ROOT) -> Catalog:
    """Every marked message of the package, in file order then source order, duplicates merged."""
    merged: dict[tuple[str | None, str], Entry] = {}
    for path in _source_files(package):
        for entry in extract_file(path, path.relative_to(root).as_posix()):
            old = merged.get(entry.key)
            if old is None:
                merged[entry.key] = entry
                continue
            if old.msgid_plural != entry.msgid_plural:
                raise CatalogError(f"{entry.msgid!r} is marked with two different plurals ({entry.references[0]})")
            merged[entry.key] = replace(
                old,
                references=_union(old.references, entry.references),
                extracted=_union(old.extracted, entry.extracted),
            )
    return Catalog(header=_pot_header(), entries=list(merged.values()))


def _union(a: Sequence[str], b: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*a, *b]))


def _pot_header() -> str:
    return (
        f"Project-Id-Version: {DOMAIN}\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: 8bit\n"
        "Plural-Forms: nplurals=2; plural=(n != 1);\n"
    )


def po_header(lang: str) -> str:
    return (
        f"Project-Id-Version: {DOMAIN}\n"
        f"Language-Team: {LANGUAGE_TEAMS[lang]}\n"
        f"Language: {lang}\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: 8bit\n"
        f"Plural-Forms: {PLURAL_FORMS[lang]}\n"
    )


def nplurals(lang: str) -> int:
    return int(PLURAL_FORMS[lang].split(";", 1)[0].split("=", 1)[1])


# ------------------------------------------------------------------------------------------------ .po read/write

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise CatalogError(f"{where}: expected a quoted string, got {text!r}")
    out: list[str] = []
    i, body = 0, text[1:-1]
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            if i + 1 >= len(body) or body[i + 1] not in _ESCAPES:
                raise CatalogError(f"{where}: bad escape in {text!r}")
            out.append(_ESCAPES[body[i + 1]])
            i += 2
            continue
        if ch == '"':
            raise CatalogError(f"{where}: unescaped quote in {text!r}")
        out.append(ch)
        i += 1
    return "".join(out)


def parse_po(text: str, name: str = "<po>") -> Catalog:
    """Parse a .po file (the subset gettext tools write: comments, msgctxt, msgid, msgid_plural, msgstr[n])."""
    catalog = Catalog()
    fields: dict[str, str] = {}
    plural_strs: dict[int, str] = {}
    flags: list[str] = []
    extracted: list[str] = []
    references: list[str] = []
    comments: list[str] = []
    current: str | None = None
    current_index = -1
    seen: set[tuple[str | None, str]] = set()
    have_header = False

    def finish(lineno: int) -> None:
        nonlocal have_header, current
        if "msgid" not in fields:
            if fields or plural_strs:
                raise CatalogError(f"{name}:{lineno}: entry without msgid")
            return
        if "msgid_plural" in fields:
            if "msgstr" in fields or not plural_strs or sorted(plural_strs) != list(range(len(plural_strs))):
                raise CatalogError(f"{name}:{lineno}: plural entry needs msgstr[0..n-1]")
            msgstr = tuple(plural_strs[i] for i in range(len(plural_strs)))
        else:
            if plural_strs or "msgstr" not in fields:
                raise CatalogError(f"{name}:{lineno}: entry needs exactly one msgstr")
            msgstr = (fields["msgstr"],)
        entry = Entry(
            msgid=fields["msgid"],
            msgid_plural=fields.get("msgid_plural"),
            context=fields.get("msgctxt"),
            msgstr=msgstr,
            flags=tuple(flags),
            extracted=tuple(extracted),
            references=tuple(references),
            comments=tuple(comments),
        )
        if entry.msgid == "" and entry.context is None:
            if have_header or catalog.entries:
                raise CatalogError(f"{name}:{lineno}: the header must be the first entry, once")
            have_header = True
            catalog.header = msgstr[0]
        else:
            if entry.key in seen:
                raise CatalogError(f"{name}:{lineno}: duplicate msgid {entry.msgid!r}")
            seen.add(entry.key)
            catalog.entries.append(entry)
        fields.clear()
        plural_strs.clear()
        for lst in (flags, extracted, references, comments):
            lst.clear()
        current = None

    lines = text.splitlines()
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        where = f"{name}:{lineno}"
        if not line:
            continue
        if line.startswith("#"):
            if current is not None and fields.get("msgid") is not None and ("msgstr" in fields or plural_strs):
                finish(lineno)
            if line.startswith("#~"):
                continue  # obsolete entries are dropped
            if line.startswith("#,"):
                flags.extend(f.strip() for f in line[2:].split(",") if f.strip())
            elif line.startswith("#."):
                extracted.append(line[2:].strip())
            elif line.startswith("#:"):
                references.extend(line[2:].split())
            elif line.startswith("#|"):
                continue
            else:
                comments.append(line[1:].strip())
            continue
        if line.startswith('"'):
            if current is None:
                raise CatalogError(f"{where}: continuation line outside an entry")
            if current == "msgstr[]":
                plural_strs[current_index] += _unquote(line, where)
            else:
                fields[current] += _unquote(line, where)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and ("msgstr" in fields or plural_strs):
            finish(lineno)
        if keyword in ("msgctxt", "msgid", "msgid_plural", "msgstr"):
            if keyword in fields:
                raise CatalogError(f"{where}: {keyword} twice in one entry")
            if keyword == "msgid" and "msgid" in fields:
                raise CatalogError(f"{where}: msgid twice")
            fields[keyword] = _unquote(rest, where)
            current = keyword
        elif keyword.startswith("msgstr[") and keyword.endswith("]"):
            try:
                index = int(keyword[7:-1])
            except ValueError as exc:
                raise CatalogError(f"{where}: bad plural index {keyword!r}") from exc
            if index in plural_strs:
                raise CatalogError(f"{where}: {keyword} twice")
            plural_strs[index] = _unquote(rest, where)
            current, current_index = "msgstr[]", index
        else:
            raise CatalogError(f"{where}: unexpected {line!r}")
    finish(len(lines) + 1)
    return catalog


def _quote(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\r", "\\r")
    return '"' + out.replace("\n", "\\n") + '"'


def _split_for_wrap(text: str, room: int) -> list[str]:
    """Chunks of `text` whose quoted form fits in `room` columns, broken after spaces and after newlines."""
    pieces: list[str] = []
    for part in text.splitlines(keepends=True):
        words: list[str] = []
        word = ""
        for ch in part:
            word += ch
            if ch == " ":
                words.append(word)
                word = ""
        if word:
            words.append(word)
        line = ""
        for w in words:
            if line and len(_quote(line + w)) > room:
                pieces.append(line)
                line = ""
            line += w
        if line:
            pieces.append(line)
    return pieces


def _render_string(keyword: str, text: str) -> list[str]:
    single = f"{keyword} {_quote(text)}"
    if len(single) <= _WIDTH and "\n" not in text[:-1]:
        return [single]
    return [f'{keyword} ""', *(_quote(p) for p in _split_for_wrap(text, _WIDTH))]


def render_po(catalog: Catalog, title: str) -> str:
    out = [f"# {title}", "#, fuzzy" if not catalog.header else "", *_render_string("msgid", ""),
           *_render_string("msgstr", catalog.header), ""]
    out = [line for line in out if line != ""] + [""]
    for entry in catalog.entries:
        out.extend(f"# {c}".rstrip() for c in entry.comments)
        out.extend(f"#. {c}" for c in entry.extracted)
        if entry.references:
            out.append("#: " + " ".join(entry.references))
        if entry.flags:
            out.append("#, " + ", ".join(entry.flags))
        if entry.context is not None:
            out.extend(_render_string("msgctxt", entry.context))
        out.extend(_render_string("msgid", entry.msgid))
        if entry.msgid_plural is not None:
            out.extend(_render_string("msgid_plural", entry.msgid_plural))
            for i, s in enumerate(entry.msgstr):
                out.extend(_render_string(f"msgstr[{i}]", s))
        else:
            out.extend(_render_string("msgstr", entry.msgstr[0]))
        out.append("")
    return "\n".join(out)


def render_pot(catalog: Catalog) -> str:
    return render_po(catalog, "p2pdurak messages (English source). Generated by tools/i18n_catalogs.py extract.")


def po_title(lang: str) -> str:
    return f"p2pdurak messages in {LANGUAGE_TEAMS[lang]}. Update with tools/i18n_catalogs.py update."


# ------------------------------------------------------------------------------------------------------ merging


def merge(template: Catalog, old: Catalog, lang: str) -> Catalog:
    """The template's messages in its order, with the translations (and translator comments) of `old`."""
    known = old.by_key()
    count = nplurals(lang)
    entries: list[Entry] = []
    for t in template.entries:
        prev = known.get(t.key)
        msgstr: tuple[str, ...] = tuple("" for _ in range(count)) if t.msgid_plural is not None else ("",)
        flags: tuple[str, ...] = ()
        comments: tuple[str, ...] = ()
        if prev is not None and (prev.msgid_plural is None) == (t.msgid_plural is None):
            msgstr, flags, comments = prev.msgstr, prev.flags, prev.comments
            if t.msgid_plural is not None and len(msgstr) != count:
                msgstr = (*msgstr, *("" for _ in range(count)))[:count]
            if prev.msgid_plural != t.msgid_plural and "fuzzy" not in flags:
                flags = (*flags, "fuzzy")
        entries.append(replace(t, msgstr=msgstr, flags=flags, comments=comments))
    return Catalog(header=po_header(lang), entries=entries)


# ---------------------------------------------------------------------------------------------------- .mo files


def compile_mo(catalog: Catalog) -> bytes:
    """GNU .mo bytes (little-endian, no hash table), keys sorted; fuzzy and untranslated entries are left out."""
    pairs: dict[bytes, bytes] = {b"": catalog.header.encode("utf-8")}
    for e in catalog.entries:
        if e.fuzzy or not all(e.msgstr):
            continue
        key = e.msgid if e.context is None else f"{e.context}\x04{e.msgid}"
        if e.msgid_plural is not None:
            key += "\x00" + e.msgid_plural
        pairs[key.encode("utf-8")] = "\x00".join(e.msgstr).encode("utf-8")
    keys = sorted(pairs)
    n = len(keys)
    originals_at = 7 * 4
    translations_at = originals_at + 8 * n
    data_at = translations_at + 8 * n
    ids = b""
    strs = b""
    id_table: list[tuple[int, int]] = []
    for k in keys:
        id_table.append((len(k), len(ids)))
        ids += k + b"\0"
    str_table: list[tuple[int, int]] = []
    for k in keys:
        v = pairs[k]
        str_table.append((len(v), len(strs)))
        strs += v + b"\0"
    out = struct.pack("<7I", _MO_MAGIC, 0, n, originals_at, translations_at, 0, data_at)
    for length, offset in id_table:
        out += struct.pack("<2I", length, data_at + offset)
    for length, offset in str_table:
        out += struct.pack("<2I", length, data_at + len(ids) + offset)
    return out + ids + strs


# ------------------------------------------------------------------------------------------------------- checks


def placeholders(text: str) -> list[tuple[str, str, str]]:
    """The `{name!conv:spec}` fields of a str.format template, sorted; ValueError if braces are unbalanced."""
    found = [(name, conv or "", spec or "") for _, name, spec, conv in Formatter().parse(text) if name is not None]
    return sorted(found)


def entry_problems(entry: Entry, lang: str) -> list[str]:
    label = f"{lang}: {entry.msgid[:50]!r}" + (f" [{entry.context}]" if entry.context else "")
    problems: list[str] = []
    if entry.fuzzy:
        problems.append(f"{label}: fuzzy")
    expected_forms = nplurals(lang) if entry.msgid_plural is not None else 1
    if len(entry.msgstr) != expected_forms:
        problems.append(f"{label}: {len(entry.msgstr)} forms, expected {expected_forms}")
    sources = [entry.msgid] if entry.msgid_plural is None else [entry.msgid, entry.msgid_plural]
    try:
        wanted = {tuple(placeholders(s)) for s in sources}
    except ValueError:
        return [*problems, f"{label}: the msgid is not a valid format string"]
    if len(wanted) != 1:
        problems.append(f"{label}: singular and plural msgids have different placeholders")
    for i, s in enumerate(entry.msgstr):
        if not s:
            problems.append(f"{label}: form {i} untranslated")
            continue
        try:
            got = tuple(placeholders(s))
        except ValueError:
            problems.append(f"{label}: form {i} has unbalanced braces")
            continue
        if got not in wanted:
            problems.append(f"{label}: form {i} has placeholders {got}, the msgid {sorted(wanted)}")
        if s.endswith("\n") != sources[0].endswith("\n") or s.startswith("\n") != sources[0].startswith("\n"):
            problems.append(f"{label}: form {i} starts or ends with a newline unlike the msgid")
    return problems


def po_path(lang: str, locale: Path = LOCALE) -> Path:
    return locale / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str, locale: Path = LOCALE) -> Path:
    return locale / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def check(package: Path = PACKAGE, locale: Path = LOCALE, root: Path = ROOT) -> list[str]:
    """Everything that is stale or incomplete; empty when the catalogs are ready to ship."""
    problems: list[str] = []
    template = extract(package, root)
    pot_file = locale / f"{DOMAIN}.pot"
    if not pot_file.exists() or pot_file.read_text(encoding="utf-8") != render_pot(template):
        problems.append(f"{pot_file.name} is stale: run tools/i18n_catalogs.py extract")
    for lang in PLURAL_FORMS:
        po_file = po_path(lang, locale)
        if not po_file.exists():
            problems.append(f"{lang}: no {po_file.name}")
            continue
        catalog = parse_po(po_file.read_text(encoding="utf-8"), str(po_file))
        have = catalog.by_key()
        for t in template.entries:
            if t.key not in have:
                problems.append(f"{lang}: missing {t.msgid[:50]!r}")
        for key in have.keys() - {t.key for t in template.entries}:
            problems.append(f"{lang}: obsolete {key[1][:50]!r}")
        for entry in catalog.entries:
            problems.extend(entry_problems(entry, lang))
        if render_po(merge(template, catalog, lang), po_title(lang)) != po_file.read_text(encoding="utf-8"):
            problems.append(f"{lang}: {po_file.name} is not up to date with the .pot: run update")
        mo_file = mo_path(lang, locale)
        if not mo_file.exists() or mo_file.read_bytes() != compile_mo(catalog):
            problems.append(f"{lang}: {mo_file.name} is stale: run compile")
    return problems


# --------------------------------------------------------------------------------------------------------- main


def _write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)


def command_extract() -> None:
    _write(POT_PATH, render_pot(extract()))


def command_update() -> None:
    template = extract()
    for lang in PLURAL_FORMS:
        path = po_path(lang)
        old = parse_po(path.read_text(encoding="utf-8"), str(path)) if path.exists() else Catalog()
        _write(path, render_po(merge(template, old, lang), po_title(lang)))


def command_compile() -> None:
    for lang in PLURAL_FORMS:
        path = po_path(lang)
        _write(mo_path(lang), compile_mo(parse_po(path.read_text(encoding="utf-8"), str(path))))


def main(argv: Iterable[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] not in ("extract", "update", "compile", "all", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    command = args[0]
    if command in ("extract", "all"):
        command_extract()
    if command in ("update", "all"):
        command_update()
    if command in ("compile", "all"):
        command_compile()
    problems = check()
    for p in problems:
        print(p)
    print(f"{len(problems)} problem(s)" if problems else "catalogs complete and up to date")
    return 1 if problems and command in ("check", "all") else 0


if __name__ == "__main__":
    raise SystemExit(main())
