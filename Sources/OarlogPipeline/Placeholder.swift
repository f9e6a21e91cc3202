import OarlogCore
