"""Stage II synthesis: Chinese grammars per scenario, filled from the tools' data store."""
