"""Every benchmark script parses and imports only names that exist (bench/bench_documents.py once had an
unmatched parenthesis, and scripts imported names the core no longer had); the quick ones run."""
import ast
import importlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_bench_script_parses_and_its_core_imports_exist():
    scripts = sorted((ROOT / "bench").glob("*.py"))
    assert len(scripts) >= 8
    checked = 0
    for path in scripts:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        compile(tree, str(path), "exec")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("blonde_core",
                                                                                                    "pages"):
                mod = importlib.import_module(node.module)
                for a in node.names:
                    assert hasattr(mod, a.name) or importlib.util.find_spec(f"{node.module}.{a.name}"), \
                        (path.name, node.module, a.name)
                    checked += 1
    assert checked >= 10


def test_the_startup_bench_runs():
    p = subprocess.run([sys.executable, "bench/bench_startup.py", "--repeat", "1", "--skip-wmt"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert "import blonde_core.study: median" in p.stdout and "heavy libraries loaded: none" in p.stdout
    assert "TED score --per-doc, whole process: cold" in p.stdout
