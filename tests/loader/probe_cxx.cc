// SPDX-License-Identifier: GPL-2.0
// probe_cxx: C++ exceptions, static constructors and iostreams through the loader.
#include <iostream>
#include <stdexcept>
#include <string>

static std::string made_by_constructor = std::string("static ") + "constructor";

static int thrower(int n)
{
	if (n > 2)
		throw std::runtime_error("thrown at depth " + std::to_string(n));
	return thrower(n + 1);
}

int main()
{
	std::cout << made_by_constructor << std::endl;
	try {
		thrower(0);
	} catch (const std::exception &e) {
		std::cout << "caught: " << e.what() << std::endl;
		return 4;
	}
	return 0;
}
