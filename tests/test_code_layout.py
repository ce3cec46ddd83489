"""The code's layout as the architecture promises it: the product package never imports the
workbench (so the Lambda package can leave it out), app's modules import each other without a
cycle, and no module grows past what a reader takes in at once."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_MODULES = {"app.engine.parcheesi", "app.engine.ludo", "app.engine.red_arse"}
MOST_LINES = 800


def modules(package: str) -> dict[str, Path]:
    """Every module of a package by dotted name (a package by its own name)."""
    found = {}
    for path in (ROOT / package).rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imports(name: str, path: Path) -> set[str]:
    """The dotted names a module imports, at the top or inside a function, resolved to the
    longest that names a module or a name in one."""
    base = name if path.name == "__init__.py" else name.rpartition(".")[0]
    named = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                parent = base.rsplit(".", node.level - 1)[0] if node.level > 1 else base
                module = f"{parent}.{module}" if module else parent
            named.add(module)
            named.update(f"{module}.{alias.name}" for alias in node.names)
    return named


def edges(found: dict[str, Path]) -> dict[str, set[str]]:
    """Who imports whom among ``found``, less a module's imports of its own package's face
    (``from app.web import ROOT`` in app/web/api.py), which can't make a cycle that matters."""
    graph = {}
    for name, path in found.items():
        targets = set()
        for imported in imports(name, path):
            while imported and imported not in found:
                imported = imported.rpartition(".")[0]
            if imported and imported != name and not name.startswith(imported + "."):
                targets.add(imported)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_the_product_never_imports_the_workbench():
    importers = {name for name, path in modules("app").items()
                 if any(i == "workbench" or i.startswith("workbench.")
                        for i in imports(name, path))}
    assert importers == set()


def test_app_s_modules_import_each_other_without_a_cycle():
    assert cycles(edges(modules("app"))) == []


def test_the_cycle_finder_finds_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_of_the_product_is_longer_than_a_reader_takes_in():
    long = {name: lines for name, path in modules("app").items()
            if (lines := len(path.read_text().splitlines())) > MOST_LINES
            and name not in RULES_MODULES}
    assert long == {}
