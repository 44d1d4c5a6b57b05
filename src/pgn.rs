//! Game records (PGN as written by XQStudio / xqbase): being written.
