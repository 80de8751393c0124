// The driver's queries, rows and their types are what an app's PostgreSQL store writes in.
@_exported import TesseraPostgresDriver
