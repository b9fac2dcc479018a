"""The input part: files in, a `Corpus` (corpus.py) and human judgments out.

Contract: every reader returns a validated value or raises `InputError` naming
the file, the line and the problem; nothing a user gave is altered.  readers.py
reads plain text, tables and JSON Lines; structured.py dispatches one structured
file (WMT XML, MQM TSV, TSV/CSV, JSON Lines); human.py and da.py read human
judgments (MQM, tables, WMT DA / ESA segment scores).
"""
