"""The annotation part: text in, one record per distinct sentence out.

Contract: `build_annotator(pack, lowercase, store)` (annotator.py, the one place an Annotator is made) gives an
Annotator whose `annotate(texts)` returns
{prepared text: record} and annotates each distinct text once per process, even
for concurrent callers; records reach the store batch by batch.  A record is
what spaCy saw (tokens, offsets, fine-grained tags, entities); the store
(store.py, SQLite) keys it by schema version, pipeline and spaCy versions,
lowercase flag and text.  Where spaCy runs: in the calling process, in forked
processes (command line) or in the server's long-lived worker processes
(workers.py).  Nothing here knows about BlonDe's categories.
"""
