"""The audit trail read by people: kinds to filter on, sentences to read, cells safe to open in a spreadsheet."""
