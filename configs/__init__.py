"""The build configurations; shipped as ``plugineval.builder.configs`` (setup.py), so that an installed
package finds ``default.toml`` (``plugineval.builder.pccf.config.DEFAULT_CONFIG``)."""
