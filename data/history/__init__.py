"""OneClaw's history as stored: peewee entities, the database opened read-only, the DAOs and writers
(the Room entities and DAOs of data/local/; BR-11, P-03, P-13)."""
