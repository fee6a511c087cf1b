//! Route tables, grouped so that each path is one actix resource.
use actix_web::http::Method;
use actix_web::{FromRequest, Handler, Responder, Route, web};

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
    /// Each route with the one method it answers, kept so that the table can be listed.
    routes: Vec<(Method, Route)>,
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

    /// `handler` answers `method` requests on `path`.
    pub fn method<F, Args>(&mut self, method: Method, path: &str, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        let route = web::method(method.clone()).to(handler);
        self.entry(path).routes.push((method, route));
        self
    }

    pub fn get<F, Args>(&mut self, path: &str, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.method(Method::GET, path, handler)
    }

    pub fn post<F, Args>(&mut self, path: &str, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.method(Method::POST, path, handler)
    }

    pub fn put<F, Args>(&mut self, path: &str, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.method(Method::PUT, path, handler)
    }

    pub fn delete<F, Args>(&mut self, path: &str, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.method(Method::DELETE, path, handler)
    }

    /// Reads JSON bodies on `path` with `config` instead of the application's.
    pub fn json_config(&mut self, path: &str, config: web::JsonConfig) -> &mut Self {
        self.entry(path).json = Some(config);
        self
    }

    /// Every (method, path) of the table, in declaration order: what a test compares with
    /// the documentation.
    pub fn endpoints(&self) -> Vec<(Method, String)> {
        self.paths
            .iter()
            .flat_map(|known| {
                known
                    .routes
                    .iter()
                    .map(|(method, _)| (method.clone(), known.path.clone()))
            })
            .collect()
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
                    .fold(resource, |resource, (_, route)| resource.route(route)),
            );
        }
    }
}
