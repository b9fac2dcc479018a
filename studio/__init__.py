"""The app's runtime (the Streamlit side, no page), a module per role:

* `navigation` - the routing check, the data token in the address, the pages declared once (`PAGES`, `page`);
* `session` - this session's data (`data`, `set_data`, the store behind the token), its settings (`config`), the
  data as pages score it (`scoped`), the sample;
* `gate` - a page's start: title, data, settings and Analysis, or the message saying what is missing;
* `sidebar` - the settings and the page links;
* `compute` - results with a progress bar or a spinner;
* `widgets`, `tables`, `plots`, `text` - what pages draw, their tables, charts and escaping;
* `typed` - typed text (the Sandbox, the gallery); `views` - views several pages show; `release` - a WMT release
  in one session;
* `state` - the server's engine from the environment, the store of loaded studies behind the links, presence of
  live sessions; `internals` - the one module that reaches into Streamlit's private parts, each checked by a test.

`pages/` holds the page files and nothing else; `app.py` routes them."""
