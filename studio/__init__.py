"""The app's runtime (the Streamlit side, no page): `state` (the server's engine from the environment, the
store of loaded studies behind the links, presence of live sessions), `shared` (routing, the sidebar's
settings, progress, HTML helpers and the widgets every page uses), `views` (views several pages show) and
`internals` (the one module that reaches into Streamlit's private parts, each checked by a test).
`pages/` holds the page files and nothing else; `app.py` routes them."""
