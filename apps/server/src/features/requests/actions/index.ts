// Every request action registers itself when its module loads; list each action module here.
import '../files.js';
