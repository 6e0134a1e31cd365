"""Package layout: the core lives in loaders/plugineval, the builder in builder/ as plugineval.builder."""

from setuptools import find_namespace_packages, setup

# namespace packages: the data folders (catalog/data, judge/prompts, builder/grammars, ...) are shipped
# as packages of their own, so that a wheel carries them (tests/test_packaging.py)
skip = ["__pycache__", "*.__pycache__"]
core = find_namespace_packages("loaders", include=["plugineval", "plugineval.*"], exclude=skip)
builder = [
    "plugineval." + p for p in find_namespace_packages(".", include=["builder", "builder.*"], exclude=skip)
]

setup(
    packages=core + builder,
    package_dir={"plugineval": "loaders/plugineval", "plugineval.builder": "builder"},
)
