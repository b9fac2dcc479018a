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
