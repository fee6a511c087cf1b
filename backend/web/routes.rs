//! Route tables, grouped so that each path is one actix resource.
use actix_web::{Route, web};

/// Routes collected path by path, in the order first declared. actix's
/// `ServiceConfig::route` makes one resource per route, guarded by the route's method, so
/// a known path asked with another method would fall through to the 404 page; one
/// resource per path answers 405 with an `Allow` header listing the methods it has.
#[derive(Default)]
pub struct Routes {
    paths: Vec<PathRoutes>,
}

struct PathRoutes {
    path: String,
    routes: Vec<Route>,
    /// A JSON limit of its own (the TRF import carries a whole file).
    json: Option<web::JsonConfig>,
}

impl Routes {
    fn entry(&mut self, path: &str) -> &mut PathRoutes {
        let at = match self.paths.iter().position(|known| known.path == path) {
            Some(at) => at,
            None => {
                self.paths.push(PathRoutes {
                    path: path.to_string(),
                    routes: Vec::new(),
                    json: None,
                });
                self.paths.len() - 1
            }
        };
        &mut self.paths[at]
    }

    pub fn route(&mut self, path: &str, route: Route) -> &mut Self {
        self.entry(path).routes.push(route);
        self
    }

    /// Reads JSON bodies on `path` with `config` instead of the application's.
    pub fn json_config(&mut self, path: &str, config: web::JsonConfig) -> &mut Self {
        self.entry(path).json = Some(config);
        self
    }

    /// Registers one resource per path, in declaration order (so `/players/new` still
    /// comes before `/players/{id}`).
    pub fn register(self, cfg: &mut web::ServiceConfig) {
        for PathRoutes { path, routes, json } in self.paths {
            let mut resource = web::resource(path);
            if let Some(config) = json {
                resource = resource.app_data(config);
            }
            cfg.service(
                routes
                    .into_iter()
                    .fold(resource, |resource, route| resource.route(route)),
            );
        }
    }
}
