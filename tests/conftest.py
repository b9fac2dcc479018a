import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs the same hypothesis examples every time (a red CI must mean a real change);
# run locally without CI=true to explore new examples.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))
TED = SHARED / "data" / "ted-zhen"
SAMPLE = ROOT / "sample_data"
SAMPLE_SYSTEMS = ["consistent", "names", "tense", "pronouns", "markers"]

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Every test run gets its own annotation cache: never the user's.
_CACHE = tempfile.mkdtemp(prefix="blonde-test-cache-")
os.environ["BLONDE_CACHE_DIR"] = _CACHE


@pytest.fixture(scope="session")
def ted():
    assert (TED / "refs" / "ref.txt").exists(), f"shared TED data missing at {TED}"
    return TED


@pytest.fixture(scope="session")
def ted_systems(ted):
    return sorted((ted / "systems").glob("*.txt"))


@pytest.fixture(scope="session")
def cache_dir():
    return _CACHE


def sample_paths():
    return [str(SAMPLE / f"{s}.txt") for s in SAMPLE_SYSTEMS]


WMT = SHARED / "data" / "wmt22-zhen"
WMT_SUBSET_SYSTEMS = ["JDExploreAcademy", "Online-A", "Online-W", "DLUT", "Online-Y"]


def wmt22_subset(folder: Path, n: int = 80) -> dict:
    """The first n segments of WMT22 zh-en (refA, refB, five systems, document ids) and the real DA
    rows of those segments, written to folder: {name: path, "docids": path, "da": path, "rows": [...]}."""
    out = {}
    for name, src in [("refA", WMT / "refs" / "refA.txt"), ("refB", WMT / "refs" / "refB.txt")] + \
            [(s, WMT / "systems" / f"{s}.txt") for s in WMT_SUBSET_SYSTEMS]:
        out[name] = folder / f"{name}.txt"
        out[name].write_text("".join(src.read_text(encoding="utf-8").splitlines(True)[:n]), encoding="utf-8")
    out["docids"] = folder / "docids.txt"
    out["docids"].write_text("".join((WMT / "docids.blk10.txt").read_text().splitlines(True)[:n]))
    lines = (WMT / "human" / "ad-seg-scores-zh-en.csv").read_text().splitlines()
    out["rows"] = [r.split() for r in lines[1:] if r.strip() and int(r.split()[1]) <= n]
    out["da"] = folder / "ad-seg-scores-zh-en.csv"
    out["da"].write_text("\n".join([lines[0]] + [" ".join(r) for r in out["rows"]]) + "\n")
    return out
