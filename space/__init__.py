"""The Space app; shipped as ``plugineval.space_app`` (setup.py), so that ``plugineval space`` serves it from
an installed package. The Space itself runs ``app.py`` from this folder, which it never imports as a package."""
