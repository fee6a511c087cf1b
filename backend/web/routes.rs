//! Route tables, grouped so that each path is one actix resource.
use actix_web::{Route, web};

/// Routes collected path by path, in the order first declared. actix's
/// `ServiceConfig::route` makes one resource per route, guarded by the route's method, so
/// a known path asked with another method would fall through to the 404 page; one
/// resource per path answers 405 with an `Allow` header listing the methods it has.
#[derive(Default)]
pub struct Routes {
    paths: Vec<(String, Vec<Route>)>,
}

impl Routes {
    pub fn route(&mut self, path: &str, route: Route) -> &mut Self {
        match self.paths.iter_mut().find(|(known, _)| known == path) {
            Some((_, routes)) => routes.push(route),
            None => self.paths.push((path.to_string(), vec![route])),
        }
        self
    }

    /// Registers one resource per path, in declaration order (so `/players/new` still
    /// comes before `/players/{id}`).
    pub fn register(self, cfg: &mut web::ServiceConfig) {
        for (path, routes) in self.paths {
            let resource = routes
                .into_iter()
                .fold(web::resource(path), |resource, route| resource.route(route));
            cfg.service(resource);
        }
    }
}
