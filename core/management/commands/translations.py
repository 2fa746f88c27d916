"""The translation catalogues: `manage.py translations` gathers every string the
sources mark into `locale/<lang>/LC_MESSAGES/django.po` (Django's makemessages), fills
the translations from the fragments in `locale/incoming/*.json`, writes the `.mo`
files the site reads and says what is still missing. `--check` changes nothing and
fails, listing each problem, when the catalogues are not complete and current (CI).

A fragment is a list of {"msgid", "ru", "fa"} (with "msgctxt" for a pgettext
context; with "msgid_plural" for plurals, each language then giving a list of its
plural forms). Several people translate at once, each in a fragment of their own, so
nobody edits a `.po` by hand: what a fragment gives replaces what the `.po` had.
"""

from __future__ import annotations

import fcntl
import json
import re
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import polib
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.core.management.commands import makemessages

# The languages the site is translated into (English is the source) and their plurals.
PLURAL_FORMS = {
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);",
    "fa": "nplurals=2; plural=(n > 1);",
}
IGNORED = [".venv", "venv", "tests", "bench", "staticfiles", "node_modules", "*.egg-info", "docs"]
# makemessages writes each template as a Python file beside it while it reads it.
IGNORED += ["*.html.py", "*.txt.py"]
# One run at a time on this machine (makemessages writes beside the sources as it reads
# them): a run waits for another to end. Not the lock people wrap the command in, so a
# run under `flock /tmp/kalooki-po.lock` does not wait for itself.
LOCK = Path(tempfile.gettempdir()) / "kalooki-translations-run.lock"

# %(name)s, %s or %d, and {name}; %% is a percent sign, not a placeholder.
PRINTF = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdifeEgGxXcr%]")
BRACES = re.compile(r"(?<!\{)\{(\w*)\}(?!\})")

Key = tuple[str | None, str]  # (msgctxt, msgid)


def placeholders(text: str) -> Counter:
    """The placeholders a string carries: named ones by name (a language may use one
    twice), positional ones by kind and count (a translation may move them, never drop
    or add one)."""
    found: Counter = Counter()
    for match in PRINTF.finditer(text):
        whole, name = match.group(0), match.group(1)
        if whole == "%%":
            continue
        if name:
            found[f"%({name})"] = 1
        else:
            found[f"%{whole[-1]}"] += 1
    for match in BRACES.finditer(text):
        if match.group(1):
            found["{" + match.group(1) + "}"] = 1
        else:
            found["{}"] += 1
    return found


def key_of(entry: polib.POEntry | polib.MOEntry) -> Key:
    return (entry.msgctxt or None, entry.msgid)


def shown(key: Key) -> str:
    context, msgid = key
    text = msgid if len(msgid) <= 70 else msgid[:67] + "..."
    return f'"{text}"' + (f" (context {context})" if context else "")


def translations_of(entry: polib.POEntry | polib.MOEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def is_translated(entry: polib.POEntry) -> bool:
    return "fuzzy" not in entry.flags and all(translations_of(entry))


@dataclass
class Fragment:
    """One entry of a `locale/incoming/*.json` fragment."""

    source: str
    key: Key
    msgid_plural: str | None
    texts: dict[str, str | list[str]]


def read_fragments(folder: Path, languages: list[str]) -> tuple[list[Fragment], list[str]]:
    """Every fragment's entries, in file order (a later file wins), and what is wrong
    with their shape."""
    entries: list[Fragment] = []
    problems: list[str] = []
    for path in sorted(folder.glob("*.json")):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            problems.append(f"{path.name}: not readable JSON ({error})")
            continue
        if not isinstance(document, list):
            problems.append(f"{path.name}: should be a list of entries")
            continue
        for number, item in enumerate(document, start=1):
            where = f"{path.name} entry {number}"
            if not isinstance(item, dict) or not isinstance(item.get("msgid"), str):
                problems.append(f"{where}: has no msgid")
                continue
            plural = item.get("msgid_plural")
            texts = {}
            for language in languages:
                text = item.get(language)
                if text is None:
                    continue
                shape_ok = (
                    isinstance(text, list) and all(isinstance(t, str) for t in text)
                    if plural
                    else isinstance(text, str)
                )
                if not shape_ok:
                    wanted = "a list of plural forms" if plural else "a string"
                    problems.append(
                        f"{where} ({item['msgid'][:40]}): {language} should be {wanted}"
                    )
                    continue
                texts[language] = text
            key = (item.get("msgctxt") or None, item["msgid"])
            entries.append(Fragment(path.name, key, plural, texts))
    return entries, problems


def conflicts(fragments: list[Fragment]) -> list[str]:
    """Strings two fragments translate differently (the later file's wins)."""
    first: dict[tuple[Key, str], Fragment] = {}
    found = []
    for fragment in fragments:
        for language, text in fragment.texts.items():
            earlier = first.setdefault((fragment.key, language), fragment)
            if earlier is not fragment and earlier.texts[language] != text:
                found.append(
                    f"{language}: {shown(fragment.key)} is translated differently in "
                    f"{earlier.source} and {fragment.source}; {fragment.source}'s is used"
                )
    return found


def fill(po: polib.POFile, language: str, fragments: list[Fragment]) -> list[str]:
    """Put the fragments' translations into the catalogue; returns the fragments'
    msgids the sources no longer mark (a typo, or a string taken out)."""
    by_key = {key_of(entry): entry for entry in po if not entry.obsolete}
    unknown = []
    for fragment in fragments:
        text = fragment.texts.get(language)
        if text is None:
            continue
        entry = by_key.get(fragment.key)
        if entry is None:
            unknown.append(f"{fragment.source}: {shown(fragment.key)} is not marked in the sources")
            continue
        if entry.msgid_plural:
            forms = text if isinstance(text, list) else [text]
            entry.msgstr_plural = dict(enumerate(forms))
        else:
            entry.msgstr = text if isinstance(text, str) else text[0]
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
        entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
    return unknown


def set_header(po: polib.POFile, language: str) -> None:
    """The same header on every run, so a run that changes no string changes no file."""
    po.header = "Kalooki tournaments: the site's words.\nMade by manage.py translations."
    po.metadata_is_fuzzy = False
    po.metadata = {
        "Project-Id-Version": "kalooki",
        "Report-Msgid-Bugs-To": "",
        "Language": language,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": PLURAL_FORMS[language],
    }


def plural_count(po: polib.POFile) -> int | None:
    match = re.search(r"nplurals\s*=\s*(\d+)", po.metadata.get("Plural-Forms", ""))
    return int(match.group(1)) if match else None


def catalogue_problems(
    po: polib.POFile,
    language: str,
    *,
    marked: set[Key] | None = None,
    mo: polib.MOFile | None = None,
    fragments: list[Fragment] = (),
) -> list[str]:
    """What is wrong with one language's catalogue: strings the sources mark that it
    lacks (`marked`, from a fresh extraction), strings it has that no source marks,
    translations missing or fuzzy, placeholders dropped or added, a `.mo` that is not
    the `.po` compiled, a `.po` that disagrees with a fragment."""
    problems = []
    entries = [entry for entry in po if not entry.obsolete]
    have = {key_of(entry) for entry in entries}
    if marked is not None:
        for key in sorted(marked - have, key=lambda k: (k[1], k[0] or "")):
            problems.append(f"{language}: {shown(key)} is marked in the sources but not in the .po")
        for key in sorted(have - marked, key=lambda k: (k[1], k[0] or "")):
            problems.append(f"{language}: {shown(key)} is in the .po but no source marks it")
    forms = plural_count(po)
    for entry in entries:
        key = key_of(entry)
        if "fuzzy" in entry.flags:
            problems.append(f"{language}: {shown(key)} is fuzzy")
            continue
        texts = translations_of(entry)
        if not all(texts):
            problems.append(f"{language}: {shown(key)} has no translation")
            continue
        if entry.msgid_plural and forms is not None and len(texts) != forms:
            problems.append(f"{language}: {shown(key)} has {len(texts)} plural forms, not {forms}")
        source = placeholders(entry.msgid)
        if entry.msgid_plural:
            source |= placeholders(entry.msgid_plural)
        for text in texts:
            got = placeholders(text)
            if got != source:
                dropped = sorted((source - got).keys())
                added = sorted((got - source).keys())
                said = ", ".join(
                    part
                    for part in (
                        f"drops {' '.join(dropped)}" if dropped else "",
                        f"adds {' '.join(added)}" if added else "",
                    )
                    if part
                )
                problems.append(f"{language}: {shown(key)}: the translation {said}")
                break
    if mo is not None:
        expected = {key_of(e): translations_of(e) for e in entries if is_translated(e)}
        compiled = {key_of(e): translations_of(e) for e in mo if e.msgid}
        if expected != compiled:
            problems.append(
                f"{language}: the .mo is not the .po compiled (run manage.py translations)"
            )
    by_key = {key_of(entry): entry for entry in entries}
    # The fragment that gives each string its translation: the later file's.
    effective = {(f.key, lang): f for f in fragments for lang in f.texts}
    for fragment in fragments:
        if effective.get((fragment.key, language)) is not fragment:
            continue
        text = fragment.texts.get(language)
        entry = by_key.get(fragment.key)
        if text is None or entry is None:
            continue
        wanted = text if isinstance(text, list) else [text]
        if translations_of(entry) != wanted or "fuzzy" in entry.flags:
            problems.append(
                f"{language}: {shown(fragment.key)} differs from {fragment.source}"
                " (run manage.py translations)"
            )
    return problems


class Extraction(makemessages.Command):
    """Django's makemessages, writing its catalogues into one folder of our choosing
    (the project's `locale/`, or a scratch copy of it for --check) whatever the
    settings say, and never guessing a translation from a similar string."""

    msgmerge_options = ["-q", "--backup=none", "--update", "--no-fuzzy-matching"]
    # The game's words (`game.words.say`, `say_plural`): its templates are marked too.
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=say",
        "--keyword=say_plural:1,2",
    ]

    def __init__(self, *args, into: Path, **kwargs):
        super().__init__(*args, **kwargs)
        self.into = str(into)

    def find_files(self, root):
        files = super().find_files(root)
        self.locale_paths = [self.into]
        self.default_locale_path = self.into
        for found in files:
            found.locale_dir = self.into
        return files


def extract(into: Path, languages: list[str]) -> None:
    """Run makemessages over the project into `into/<lang>/LC_MESSAGES/django.po`."""
    call_command(
        Extraction(into=into),
        locale=languages,
        domain="django",
        verbosity=0,
        ignore_patterns=IGNORED,
        no_wrap=True,
        add_location="file",
        no_obsolete=True,
    )


def po_path(folder: Path, language: str) -> Path:
    return folder / language / "LC_MESSAGES" / "django.po"


def locale_folder() -> Path:
    return Path(settings.LOCALE_PATHS[0]) if settings.LOCALE_PATHS else settings.BASE_DIR / "locale"


def translated_languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES if code in PLURAL_FORMS]


class Command(BaseCommand):
    help = (
        "Gather the marked strings into locale/*/django.po, fill them from "
        "locale/incoming/*.json, compile the .mo files; --check only checks."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--check",
            action="store_true",
            help="change nothing; exit 1 listing what is missing, stale or wrong",
        )

    def handle(self, *args, check: bool, **options):
        with LOCK.open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self.run(check=check)

    def run(self, *, check: bool) -> None:
        folder = locale_folder()
        languages = translated_languages()
        fragments, shape_problems = read_fragments(folder / "incoming", languages)
        if check:
            self.check_catalogues(folder, languages, fragments, shape_problems)
        else:
            self.update_catalogues(folder, languages, fragments, shape_problems)

    def update_catalogues(self, folder, languages, fragments, shape_problems) -> None:
        extract(folder, languages)
        for problem in shape_problems + conflicts(fragments):
            self.stderr.write(problem)
        unknown: set[str] = set()
        missing: dict[Key, list[str]] = {}
        places: dict[Key, str] = {}
        for language in languages:
            path = po_path(folder, language)
            po = polib.pofile(str(path), wrapwidth=0)
            set_header(po, language)
            unknown.update(fill(po, language, fragments))
            po.save(str(path))
            po.save_as_mofile(str(path.with_suffix(".mo")))
            for entry in po:
                if not entry.obsolete and not is_translated(entry):
                    missing.setdefault(key_of(entry), []).append(language)
                    places[key_of(entry)] = " ".join(
                        sorted({file for file, _line in entry.occurrences})
                    )
        for line in sorted(unknown):
            self.stderr.write(f"unused: {line}")
        for key, langs in missing.items():
            self.stdout.write(f"missing in {', '.join(langs)}: {shown(key)}  [{places[key]}]")
        for language in languages:
            count = sum(1 for langs in missing.values() if language in langs)
            self.stdout.write(f"{language}: {count} missing")

    def check_catalogues(self, folder, languages, fragments, shape_problems) -> None:
        problems = list(shape_problems) + conflicts(fragments)
        with tempfile.TemporaryDirectory() as scratch:
            scratch = Path(scratch)
            for language in languages:
                if po_path(folder, language).exists():
                    po_path(scratch, language).parent.mkdir(parents=True)
                    shutil.copy(po_path(folder, language), po_path(scratch, language))
            extract(scratch, languages)
            marked = {
                language: {
                    key_of(entry)
                    for entry in polib.pofile(str(po_path(scratch, language)))
                    if not entry.obsolete
                }
                for language in languages
            }
        for language in languages:
            path = po_path(folder, language)
            if not path.exists():
                problems.append(f"{language}: {path} is missing (run manage.py translations)")
                continue
            po = polib.pofile(str(path))
            mo_path = path.with_suffix(".mo")
            mo = polib.mofile(str(mo_path)) if mo_path.exists() else None
            if mo is None:
                problems.append(f"{language}: {mo_path} is missing (run manage.py translations)")
            problems += catalogue_problems(
                po, language, marked=marked[language], mo=mo, fragments=fragments
            )
        if problems:
            raise CommandError(
                f"{len(problems)} problems in the translations:\n" + "\n".join(problems),
                returncode=1,
            )
        self.stdout.write(f"ok: {', '.join(languages)} complete and current")
