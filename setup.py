"""Package layout: the core lives in loaders/plugineval, the builder in builder/ as plugineval.builder."""

from setuptools import find_packages, setup

core = find_packages("loaders", include=["plugineval", "plugineval.*"])
builder = ["plugineval." + p for p in find_packages(".", include=["builder", "builder.*"])]

setup(
    packages=core + builder,
    package_dir={"plugineval": "loaders/plugineval", "plugineval.builder": "builder"},
)
