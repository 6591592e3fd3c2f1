//! The one interface the store's SQL runs through, whichever database holds the store
//! ([`Sql`]): statements with numbered parameters (`?1`, `?2`), values that are text or 64-bit
//! integers ([`Value`]), rows read back as plain cells ([`Cell`]). `db` writes each query once
//! against it; the SQLite and PostgreSQL backends only carry the statements to their database.
//!
//! Key invariants: every statement of the store is written in the SQL both databases read
//! alike, with parameters as `?N` (SQLite's numbered form), which [`postgres_placeholders`]
//! turns into PostgreSQL's `$N`, the one rewrite made; a cell of a type the store never writes
//! is an error ([`BackendError::Cell`]), never a guess.

/// A parameter of a statement: the store's columns hold only text and 64-bit integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value<'a> {
    /// Text.
    Text(&'a str),
    /// A 64-bit integer.
    Int(i64),
}

/// One cell of a row read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    /// SQL's NULL.
    Null,
    /// An integer.
    Int(i64),
    /// Text.
    Text(String),
}

/// A row read back: its cells, in the order the query names them.
pub(crate) type Row = Vec<Cell>;

/// Reads cells of a row by index, as the type the store wrote there.
pub(crate) trait Cells {
    /// The integer at `index`.
    fn int(&self, index: usize) -> Result<i64, BackendError>;
    /// The text at `index`.
    fn text(&self, index: usize) -> Result<String, BackendError>;
}

impl Cells for [Cell] {
    fn int(&self, index: usize) -> Result<i64, BackendError> {
        match self.get(index) {
            Some(Cell::Int(n)) => Ok(*n),
            other => Err(BackendError::Cell(format!(
                "column {index} holds {} where plies writes an integer",
                describe(other)
            ))),
        }
    }

    fn text(&self, index: usize) -> Result<String, BackendError> {
        match self.get(index) {
            Some(Cell::Text(text)) => Ok(text.clone()),
            other => Err(BackendError::Cell(format!(
                "column {index} holds {} where plies writes text",
                describe(other)
            ))),
        }
    }
}

/// What a cell is, in words.
fn describe(cell: Option<&Cell>) -> &'static str {
    match cell {
        None => "nothing",
        Some(Cell::Null) => "NULL",
        Some(Cell::Int(_)) => "an integer",
        Some(Cell::Text(_)) => "text",
    }
}

/// Why a statement failed: the database's own error, or a cell of a type the store never
/// writes (a store changed by hand).
#[derive(Debug)]
pub(crate) enum BackendError {
    /// SQLite's error.
    Sqlite(rusqlite::Error),
    /// PostgreSQL's (or the connection's) error.
    Postgres(postgres::Error),
    /// A cell of a type plies never writes there.
    Cell(String),
}

impl From<rusqlite::Error> for BackendError {
    fn from(e: rusqlite::Error) -> BackendError {
        BackendError::Sqlite(e)
    }
}

impl From<postgres::Error> for BackendError {
    fn from(e: postgres::Error) -> BackendError {
        BackendError::Postgres(e)
    }
}

/// A connection, or a transaction on one, that runs the store's statements.
pub(crate) trait Sql {
    /// Runs `sql` with `params`; the number of rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value<'_>]) -> Result<u64, BackendError>;
    /// Runs the query `sql` with `params`; its rows.
    fn query(&mut self, sql: &str, params: &[Value<'_>]) -> Result<Vec<Row>, BackendError>;

    /// The first row of the query `sql`, if any.
    fn query_first(
        &mut self,
        sql: &str,
        params: &[Value<'_>],
    ) -> Result<Option<Row>, BackendError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }
}

/// `sql` with SQLite's numbered parameters `?N` written as PostgreSQL's `$N`. The store's
/// statements have no `?` in a string literal, so every `?` followed by a digit is one.
pub(crate) fn postgres_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_parameters_become_dollars() {
        assert_eq!(
            postgres_placeholders("SELECT a FROM t WHERE b = ?1 AND c = ?12 LIMIT ?3"),
            "SELECT a FROM t WHERE b = $1 AND c = $12 LIMIT $3"
        );
        assert_eq!(
            postgres_placeholders("SELECT '?' , ? x"),
            "SELECT '?' , ? x"
        );
    }

    #[test]
    fn cells_are_read_as_their_types() {
        let row = [Cell::Int(3), Cell::Text("a".into()), Cell::Null];
        assert_eq!(row.int(0).unwrap(), 3);
        assert_eq!(row.text(1).unwrap(), "a");
        assert!(row.int(1).is_err());
        assert!(row.text(2).is_err());
        assert!(row.int(7).is_err());
    }
}
