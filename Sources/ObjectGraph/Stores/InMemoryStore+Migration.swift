extension InMemoryStore: SchemaMigratingStore {}
