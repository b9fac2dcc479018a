"""The input part: files in, a `Corpus` (corpus.py) and human judgments out.

Contract: every reader returns a validated value or raises `InputError` naming
the file, the line and the problem; nothing a user gave is altered.  readers.py
reads plain text, tables and JSON Lines; human.py, da.py and esa.py read human
judgments (MQM, tables, WMT DA / ESA segment scores, Appraise's ESA exports);
metric_scores.py scores of metrics computed elsewhere.  formats.py declares every
input format once (its sniff, reader, label and help) and picks the reader of a
structured file, a judgments file or a metric-score file.
"""
