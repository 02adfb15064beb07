"""OneClaw's history as stored: peewee entities, the database opened read-only, the DAOs and writers."""
