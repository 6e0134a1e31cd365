"""Domain implementations: one module per catalog domain (STORE_VERSION, SCHEMA_SQL, populate, handlers)."""
