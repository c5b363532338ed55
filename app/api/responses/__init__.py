"""Response bodies of the REST API, one module per area: what every 2xx reply holds."""
