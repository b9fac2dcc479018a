"""WMT24 en-is for the tests: the task released it (repository wmt-conference/wmt24-news-systems, folder txt/),
but it is not in the shared data folder.  Found, in order, in a WMT folder named by BLONDE_WMT24_IS, in the shared
data's wmt24 folder should it hold en-is, or in a fetched copy of the repository (a bare git mirror, read with
`git show`; BLONDE_WMT24_MIRROR names it, default ../.mirror/wmt-conference+wmt24-news-systems/repo).  Nothing here
downloads; a test without the data skips, saying which of these it looked for."""
import os
import subprocess
from pathlib import Path

from conftest import ROOT, SHARED

MIRROR = Path(os.environ.get("BLONDE_WMT24_MIRROR",
                             ROOT.parent / ".mirror" / "wmt-conference+wmt24-news-systems" / "repo"))
FILES = ("references/en-is.refA.txt", "documents/en-is.docs", "sources/en-is.txt")
WHERE = (f"WMT24 en-is not found: set BLONDE_WMT24_IS to a WMT folder holding references/en-is.refA.txt, or fetch "
         f"github:wmt-conference/wmt24-news-systems to {MIRROR}")


def _read(rel: str) -> str | None:
    """The text of one file of the pair (a path under the WMT folder, e.g. references/en-is.refA.txt), or None."""
    for folder in (os.environ.get("BLONDE_WMT24_IS"), SHARED / "data" / "wmt24"):
        if folder and (Path(folder) / rel).is_file():
            return (Path(folder) / rel).read_text(encoding="utf-8")
    if (MIRROR / "HEAD").is_file():
        got = subprocess.run(["git", "-C", str(MIRROR), "show", f"HEAD:txt/{rel}"], capture_output=True)
        if got.returncode == 0:
            return got.stdout.decode("utf-8")
    return None


def reference_lines() -> list[str] | None:
    text = _read(FILES[0])
    return None if text is None else text.split("\n")


def wmt_folder(dest: Path, systems=("GPT-4", "ONLINE-B", "Aya23"), lines: int | None = None) -> Path | None:
    """A WMT-layout folder of en-is under dest (the first `lines` lines of each file, canary included; all when
    None): references, documents, sources and the named systems' outputs; None when the data is not there."""
    out = {}
    for rel in FILES + tuple(f"system-outputs/en-is/{s}.txt" for s in systems):
        text = _read(rel)
        if text is None:
            return None
        out[rel] = text if lines is None else "\n".join(text.split("\n")[:lines]) + "\n"
    for rel, text in out.items():
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_text(text, encoding="utf-8")
    return dest


def data_root(dest: Path) -> Path | None:
    """A data folder holding wmt24/references/en-is.refA.txt (what the Icelandic gold file names), or None."""
    text = _read(FILES[0])
    if text is None:
        return None
    f = dest / "wmt24" / FILES[0]
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(text, encoding="utf-8")
    return dest
