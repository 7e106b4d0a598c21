"""The judges' writes, one module per thing: calls, penalties, deck checks."""
