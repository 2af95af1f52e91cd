import GaugeDomain
import Glibc
import Testing

@testable import GaugeStore

/// Opening a data directory: schema creation and migration, and every way
/// the directory or file can be unusable.
@Suite struct StoreOpeningTests {
  private func openError(_ path: String) -> StoreError? {
    do {
      let persistence = try SQLiteWidgetPersistence(directory: path)
      try? persistence.close()
      return nil
    } catch {
      return error
    }
  }

  @Test func aMissingDirectoryIsCreatedWithTheCurrentSchemaInWALMode() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let persistence = try SQLiteWidgetPersistence(directory: directory.file("a/b"))
    try persistence.close()
    let nested = TemporaryDirectory.existing(directory.file("a/b"))
    #expect(try rows("SELECT version FROM schema_version", in: nested) == [["4"]])
    #expect(
      try rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", in: nested)
        == [
          ["schema_version"], ["state"], ["tokens"], ["tombstones"], ["value_log"], ["widgets"],
        ])
    #expect(try rows("PRAGMA journal_mode", in: nested) == [["wal"]])
    #expect(
      try rows("SELECT key, value FROM state ORDER BY key", in: nested)
        == [["clean_shutdown", "1"], ["horizon", "0"], ["last_revision", "0"]])
  }

  @Test func anEmptyFileIsMigratedFromVersionZero() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    directory.write([], to: DataDirectory.databaseFileName)
    let connection = try SQLiteConnection(path: directory.file(DataDirectory.databaseFileName))
    #expect(try StoreSchema.migrate(connection) == 0)
    #expect(try StoreSchema.migrate(connection) == StoreSchema.currentVersion)
    connection.close()
    #expect(try rows("SELECT version FROM schema_version", in: directory) == [["4"]])
  }

  @Test func aFileFromANewerGaugedIsRefusedUntouched() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let connection = try SQLiteConnection(path: directory.file(DataDirectory.databaseFileName))
    try connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    try connection.execute("INSERT INTO schema_version (version) VALUES (99)")
    connection.close()
    let error = openError(directory.path)
    #expect(
      error?.message.hasSuffix("has schema version 99; this gauged knows versions up to 4") == true)
    #expect(try rows("SELECT version FROM schema_version", in: directory) == [["99"]])
  }

  @Test func anotherProgramsSQLiteFileIsRefused() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let connection = try SQLiteConnection(path: directory.file(DataDirectory.databaseFileName))
    try connection.execute("CREATE TABLE notes (text TEXT)")
    connection.close()
    #expect(
      openError(directory.path)?.message.hasSuffix("is an SQLite file but not a gauged data file")
        == true)
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAsItWas() {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let garbage = [UInt8](repeating: 0x5a, count: 8192)
    directory.write(garbage, to: DataDirectory.databaseFileName)
    let error = openError(directory.path)
    #expect(error?.message.contains("file is not a database") == true)
    #expect(error?.message.contains(directory.file(DataDirectory.databaseFileName)) == true)
    #expect(directory.read(DataDirectory.databaseFileName) == garbage)
  }

  @Test func aDirectoryWhereTheFileShouldBeIsRefused() {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    mkdir(directory.file(DataDirectory.databaseFileName), 0o755)
    let error = openError(directory.path)
    #expect(
      error?.message.hasPrefix("cannot open \(directory.file(DataDirectory.databaseFileName)): ")
        == true)
  }

  @Test func aDataDirectoryInsideAFileCannotBeCreated() {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    directory.write([1], to: "plain")
    let error = openError(directory.file("plain/data"))
    #expect(
      error?.message
        == "cannot create data dir \(directory.file("plain/data")): mkdir: Not a directory (errno 20)"
    )
  }

  @Test func aDirectoryInUseIsRefusedUntilItsStoreCloses() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let first = try SQLiteWidgetPersistence(directory: directory.path)
    #expect(
      openError(directory.path)?.message
        == "data dir \(directory.path) is in use by another gauged "
        + "(\(directory.file("gauged.lock")) is locked)")
    try first.close()
    #expect(openError(directory.path) == nil)
  }
}

extension StoreOpeningTests {
  @Test func aVersionOneFileGainsTheValueLogAndKeepsItsWidgets() throws {
    let directory = TemporaryDirectory()
    defer { directory.remove() }
    let clock = ManualClock()
    let first = try OpenedStore(directory, clock: clock)
    let put = try first.put("w", 3)
    try first.persistence.close()
    // The file as the gauged before the value log left it.
    let connection = try SQLiteConnection(path: directory.file(DataDirectory.databaseFileName))
    try connection.execute("DROP TABLE value_log")
    try connection.execute("DROP TABLE tokens")
    try connection.execute("UPDATE schema_version SET version = 1")
    connection.close()

    let reopened = try OpenedStore(directory, clock: clock)
    #expect(try reopened.store.get(id: "w") == put)
    try reopened.persistence.close()
    #expect(try rows("SELECT version FROM schema_version", in: directory) == [["4"]])
    #expect(try rows("SELECT count(*) FROM value_log", in: directory) == [["0"]])
  }
}
