"""The import graph of blonde_core, the pages and the command line, read from the source
with ast (imports inside functions included): which module imports which."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def sources() -> dict[str, Path]:
    files = list((ROOT / "blonde_core").rglob("*.py")) + list((ROOT / "pages").glob("*.py")) + \
        list((ROOT / "studio").glob("*.py")) + [ROOT / "app.py"]
    return {module_name(p): p for p in files}


def imports_of(name: str, path: Path, known: set) -> set:
    """The known modules this one imports (a `from pkg import mod` counts as pkg.mod)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # `from pkg import mod` imports the module pkg.mod; `from mod import name` imports mod
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:  # blonde_core.x.y.Name -> blonde_core.x.y
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def graph() -> dict[str, set]:
    src = sources()
    known = set(src)
    return {n: imports_of(n, p, known) for n, p in sorted(src.items())}


def cycles(g: dict[str, set]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in g:
        if v not in index:
            visit(v)
    return out


# The parts in the order imports may point: a module imports only from its own part or the ones before it.
LAYERS = ("base", "lang", "annotation", "io", "metric", "analysis", "study", "cli", "app")
BASE = {"blonde_core", "blonde_core.errors", "blonde_core.numbers", "blonde_core.digest", "blonde_core.memo", "blonde_core.blas",
        "blonde_core.__main__"}
DOOR = {"blonde_core.study", "blonde_core.engine", "blonde_core.render", "blonde_core.report", "blonde_core.typed",
        "blonde_core.exports", "blonde_core.leaderboard"}  # the door and its helpers


def layer(name: str) -> str:
    if name in BASE:
        return "cli" if name.endswith("__main__") else "base"
    parts = name.split(".")
    if parts[0] in ("pages", "app", "studio"):
        return "app"
    if name in DOOR:
        return "study"
    return parts[1]


def upward(g: dict[str, set]) -> list[tuple[str, str]]:
    """(importer, imported) pairs where an import points up the list of parts."""
    rank = {p: i for i, p in enumerate(LAYERS)}
    return [(n, d) for n, deps in g.items() for d in sorted(deps) if rank[layer(d)] > rank[layer(n)]]


if __name__ == "__main__":
    g = graph()
    for n, deps in g.items():
        print(n, "->", ", ".join(sorted(deps)) or "-")
    print("cycles:", cycles(g))
    print("upward:", upward(g))
