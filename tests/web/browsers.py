"""What the tests' clients send as a browser would."""

FROM_THIS_SITE = {"Sec-Fetch-Site": "same-origin"}
"""What a browser of today sends with a click on one of the site's own links: without it
(or a ``Referer`` of the site's), a request may come from a link elsewhere, which starts
no daily game (``views.from_another_site``)."""
