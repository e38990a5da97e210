from django.contrib.admin.apps import AdminConfig


class CastleAdminConfig(AdminConfig):
    """Django's admin, on :class:`castle_site.admin.CastleAdminSite`."""

    default_site = "castle_site.admin.CastleAdminSite"
