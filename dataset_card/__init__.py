"""The dataset card template; shipped as ``plugineval.builder.dataset_card`` (setup.py), so that an
installed package renders the card (``plugineval.builder.pccf.card``)."""
